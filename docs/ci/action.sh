#!/usr/bin/env bash
# The steps of the GitHub Action cupel-go/go-cupel (action.yml at the
# repository's root): action.sh install | run | summary. The action passes
# its inputs in the environment:
#   CUPEL_IMPL        the command that starts the implementation
#   CUPEL_LEVEL       the level the run must keep (conformant or fully-conformant)
#   CUPEL_SUITE       a suite directory instead of the embedded suite (optional)
#   CUPEL_EXPECTED_FAILURES an expected failures file listing known failures (optional)
#   CUPEL_EXPECTATIONS      its old name (the input expectations), read when it is unset
#   CUPEL_REPORT_DIR  the directory of the reports (junit.xml, index.html,
#                     report.json, summary.md, and install.log when the
#                     install fails)
# and GitHub sets GITHUB_ACTION_PATH (the action's checkout), RUNNER_TEMP,
# GITHUB_PATH and GITHUB_STEP_SUMMARY.
set -euo pipefail

bin="$RUNNER_TEMP/cupel-conform-bin"
report="${CUPEL_REPORT_DIR:-cupel-report}"
mkdir -p "$report"
report=$(cd "$report" && pwd)

case "${1:-}" in
install)
  # cupel-conform at the action's own version: the ref the workflow names
  # in "uses:" is the checkout in GITHUB_ACTION_PATH.
  rm -f "$report/install.log"
  if ! (cd "$GITHUB_ACTION_PATH" && GOBIN="$bin" go install ./cmd/cupel-conform) 2>"$report/install.log"; then
    cat "$report/install.log" >&2
    exit 1
  fi
  rm -f "$report/install.log"
  echo "$bin" >>"$GITHUB_PATH"
  ;;
run)
  args=(run --impl-cmd "$CUPEL_IMPL" --require-level "$CUPEL_LEVEL"
    --junit "$report/junit.xml" --html "$report/index.html"
    --json "$report/report.json" --markdown "$report/summary.md")
  if [ -n "${CUPEL_SUITE:-}" ]; then args+=(--suite "$CUPEL_SUITE"); fi
  xf="${CUPEL_EXPECTED_FAILURES:-${CUPEL_EXPECTATIONS:-}}"
  if [ -n "$xf" ]; then args+=(--expected-failures "$xf"); fi
  # The step's exit code is the run's: 0 the verdict passed, 1 it failed,
  # 2 a usage error, 3 no verdict. Any but 0 fails the job.
  exec "$bin/cupel-conform" "${args[@]}"
  ;;
summary)
  if [ -f "$report/summary.md" ]; then
    cat "$report/summary.md" >>"$GITHUB_STEP_SUMMARY"
  elif [ -f "$report/install.log" ]; then
    {
      echo "## Cupel conformance: not run"
      echo
      echo "cupel-conform could not be installed from $GITHUB_ACTION_PATH (go install ./cmd/cupel-conform); the last lines it wrote:"
      echo
      echo '```text'
      tail -n 20 "$report/install.log"
      echo '```'
    } >>"$GITHUB_STEP_SUMMARY"
  else
    {
      echo "## Cupel conformance: not run"
      echo
      echo "cupel-conform wrote no summary: see the log of the step \"Run the conformance suite\"."
    } >>"$GITHUB_STEP_SUMMARY"
  fi
  ;;
*)
  echo "usage: action.sh install | run | summary" >&2
  exit 2
  ;;
esac
