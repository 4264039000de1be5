#!/bin/sh
# Fuzz go-cupel with explore's fuzz target: go-cupel served over the
# protocol in process against go-cupel in process, for a time (default
# 60s). Exits non-zero on a divergence (a false one: both sides are
# go-cupel) and leaves the failing input under testdata/fuzz/FuzzGoCupel.
# Divergences are written as vectors under $EXPLORE_FUZZ_OUT when set.
#
#   runner/explore/explorefuzz/fuzz.sh            # 60s
#   runner/explore/explorefuzz/fuzz.sh 10m -parallel 2
set -eu
cd "$(dirname "$0")"
time=${1:-60s}
[ $# -gt 0 ] && shift
# Inputs are vector files of a few KB: minimizing each new interesting one
# for the default 60s would take the whole budget.
exec go test -run '^$' -fuzz '^FuzzGoCupel$' -fuzztime "$time" -fuzzminimizetime 5s "$@" .
