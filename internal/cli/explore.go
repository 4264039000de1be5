package cli

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

const exploreUsage = `usage: cupel-conform explore --impl-cmd CMD [--against CMD2] [--seed N]
                             [--cases N | --duration D] [--stage S] [--out DIR]

Differential testing: generate valid cases from what the implementation
declares in its hello (stages, scorers, slicers, placers), run each on the
implementation and on go-cupel in process, and compare them with the same
comparator as "run". Each distinct divergence (by stage, component and kind
of difference) is shrunk to a minimal case and, with --out, written as a
vector file that "cupel-conform run --suite DIR" runs.

Crashes, hangs (--timeout) and protocol errors are divergences too: the
case that caused one is shrunk and saved like any other.

Case i of seed N is the same on every run: a divergence is reported with
its seed and index, and "--seed N" finds it again.

What to do with a vector it writes: run it ("run --suite DIR --impl-cmd
CMD" reproduces the divergence), then decide who is right. Its expected
values are go-cupel's outputs (with --against, the second
implementation's, and neither side is trusted), not a derivation from the
spec: verify them against the spec before adopting the vector. Fix your
implementation, or report the vector to go-cupel if go-cupel is wrong.
The guide is runner/explore/EXPLORE.md in the go-cupel repository.

exit codes: 0 no divergence, 1 a divergence was found, 2 usage error,
            3 no verdict (the implementation would not start, crashed in a
            loop, or the run was interrupted before any divergence)

examples:
  cupel-conform explore --impl-cmd "python3 my_impl.py" --cases 10000 --out found
  cupel-conform explore --impl-cmd "./my-impl" --duration 2m --stage pipeline
  cupel-conform run --suite found --impl-cmd "python3 my_impl.py"

flags:
`

func (e *env) explore(args []string) (int, error) {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse prints the usage for -h; Main prints a bad flag's error once
	fs.Usage = func() {
		fmt.Fprint(e.stderr, exploreUsage)
		fs.SetOutput(e.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	implCmd := fs.String("impl-cmd", "", "the implementation: a shell `CMD` speaking cupel-conform/1 (required)")
	against := fs.String("against", "", "compare with a second implementation `CMD2` instead of go-cupel (neither is trusted)")
	seed := fs.Uint64("seed", 0, "the seed `N` (default: a random seed, printed in the summary; required with --shard)")
	cases := fs.Int("cases", 0, "generate `N` cases (default 10000 unless --duration is set)")
	duration := fs.Duration("duration", 0, "generate cases for `D` (with --cases, whichever ends first)")
	var stages listFlag
	fs.Var(&stages, "stage", "generate only this `STAGE` (scoring, slicing, placing, pipeline; repeatable)")
	out := fs.String("out", "", "write each distinct divergence as a vector under `DIR`/optional/<stage>/")
	timeout := fs.Duration("timeout", 10*time.Second, "per-case timeout (a case that takes longer is a hang)")
	startup := fs.Duration("startup-timeout", 30*time.Second, "timeout for each implementation's hello")
	restarts := fs.Int("restarts", 3, "restarts in a row (without a case completing) allowed after crashes, hangs and protocol errors")
	shrinkRuns := fs.Int("shrink-runs", 2000, "runs spent at most shrinking one divergence")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var shard shardFlag
	fs.Var(&shard, "shard", shardHelp)
	jsonOut := fs.String("json", "", "write the report as JSON (schema "+explore.ReportSchema+") to `FILE` (- for stdout), for \"report merge\"")
	coverage := fs.Bool("coverage", false, "print which parts of the configuration space the generated cases used, and how often")
	args, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(args) > 0 {
		return 0, usagef("unexpected arguments: %s", strings.Join(args, " "))
	}
	if *implCmd == "" {
		return 0, usagef("explore needs --impl-cmd CMD (the implementation to test)")
	}
	if *cases < 0 || *duration < 0 {
		return 0, usagef("--cases and --duration must not be negative")
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet && shard.Count > 1 {
		// A random seed per shard would make N explorations that cannot be
		// merged, and no seed the shards could derive alike, without
		// talking to each other, would change from one CI run to the next.
		return 0, usagef("--shard %s needs --seed N: the shards of one exploration share its seed (in CI, one every job sees, e.g. --seed $GITHUB_RUN_ID)", runner.Shard(shard))
	}
	if !seedSet {
		*seed = rand.Uint64() % 1_000_000_000
	}
	if *cases == 0 && *duration == 0 {
		*cases = 10000
	}
	process := func(cmd string) *protocol.Process {
		return protocol.NewProcess(protocol.ProcessOptions{Command: cmd, Restarts: restartsOpt(*restarts), StartupTimeout: *startup,
			Suite: protocol.HelloSuite{SpecVersion: casefile.SpecVersion}})
	}
	opts := explore.Options{Seed: *seed, Cases: *cases, Duration: *duration, Stages: stages, Out: *out,
		Timeout: *timeout, StartupTimeout: *startup, ShrinkRuns: *shrinkRuns, Coverage: *coverage, Shard: runner.Shard(shard)}
	if *against != "" {
		opts.Oracle = process(*against)
	}
	if !*quiet {
		last := time.Now()
		opts.OnProgress = func(p explore.Progress) {
			if p.Shrinking != "" {
				// The generated case's index, numbered from 0 as in the summary's
				// "(seed S, index I)": the cases so far include this one.
				fmt.Fprintf(e.stderr, "explore: divergence %s at index %d, shrinking\n", p.Shrinking, p.Cases+p.Skipped-1)
				return
			}
			if time.Since(last) < 2*time.Second {
				return
			}
			last = time.Now()
			fmt.Fprintf(e.stderr, "explore: %d cases, %.0f/s, %d divergence(s)\n", p.Cases, float64(p.Cases)/p.Elapsed.Seconds(), p.Divergences)
		}
		fmt.Fprintf(e.stderr, "explore: seed %d\n", *seed)
	}
	rep, err := explore.Run(e.ctx, process(*implCmd), opts)
	if err != nil {
		return exitInfrastructure, err
	}
	textOut := e.stdout
	if *jsonOut == "-" {
		textOut = e.stderr
	}
	if err := rep.WriteText(textOut); err != nil {
		return exitInfrastructure, err
	}
	if *jsonOut != "" {
		if err := writeFile(*jsonOut, e.stdout, rep.WriteJSON); err != nil {
			return exitInfrastructure, err
		}
	}
	if *coverage {
		fmt.Fprintln(textOut)
		if err := rep.WriteCoverage(textOut); err != nil {
			return exitInfrastructure, err
		}
	}
	if len(rep.Divergences) > 0 && *out == "" {
		fmt.Fprintf(e.stdout, "(re-run with --seed %d --out DIR to write the vectors)\n", *seed)
	}
	return verdictCode(rep.Err()), nil
}
