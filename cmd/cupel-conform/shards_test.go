package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/internal/testimpl"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
)

// TestShardedFrontEnd checks that report merge judges the shards of a run
// as one unsharded run is judged, for every target level and every
// implementation (go-cupel in process, the answer key over the embedded
// suite, each test implementation over the fixture suite), over 2 and 3
// shards: the same exit code, text report, Markdown summary, level,
// verdict and requirements.
//
// It runs in the plain pass only, as the scripts of plainOnly do: report
// merge reads, merges and renders in one goroutine, and the 64 runs it
// compares take 5 minutes under -race (30 s without); shards.txtar runs
// in both passes.
func TestShardedFrontEnd(t *testing.T) {
	if testtool.Race {
		t.Skip("plain pass only: report merge runs in one goroutine (see shards.txtar under -race)")
	}
	type impl struct {
		name string
		args []string // the suite and the implementation, as run takes them
	}
	impls := []impl{
		{"go-cupel", nil},
		{"answerkey", []string{"--impl-cmd", fmt.Sprintf("TESTIMPL=%s TESTIMPL_SUITE=%s %s", testimpl.Conformant, abs(t, "../../vectors"), os.Args[0])}},
	}
	for _, name := range testimpl.Names {
		impls = append(impls, impl{name, []string{"--suite", fixtureSuite, "--impl-cmd", implCmd(t, name), "--timeout", "1s", "--startup-timeout", "20s"}})
	}
	targets := []runner.Level{"", runner.LevelConformant, runner.LevelFullyConformant}
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			dir := t.TempDir()
			// The shards run once, without a target: a shard claims no level.
			shards := map[int][]string{}
			for _, n := range []int{2, 3} {
				for i := 1; i <= n; i++ {
					path := filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", i, n))
					code, stdout, stderr := cupelConform(append([]string{"run", "--shard", fmt.Sprintf("%d/%d", i, n), "--json", path}, im.args...)...)
					if code == 2 {
						t.Fatalf("shard %d/%d: exit 2\n%s%s", i, n, stdout, stderr)
					}
					shards[n] = append(shards[n], path)
				}
			}
			for _, target := range targets {
				whole := run(t, filepath.Join(dir, "whole-"+string(target)), append([]string{"run"}, im.args...), target)
				for _, n := range []int{2, 3} {
					merge := []string{"report merge"}
					if im.args != nil && im.name != "answerkey" {
						merge = append(merge, "--suite", fixtureSuite)
					}
					merged := run(t, filepath.Join(dir, fmt.Sprintf("merged-%s-%d", target, n)), append(merge, shards[n]...), target)
					what := fmt.Sprintf("target %q, %d shards", target, n)
					if merged.code != whole.code {
						t.Errorf("%s: report merge exits %d, run %d\n%s", what, merged.code, whole.code, merged.stdout)
					}
					if merged.stdout != whole.stdout {
						t.Errorf("%s: report merge prints\n%s\nrun prints\n%s", what, merged.stdout, whole.stdout)
					}
					if merged.markdown != whole.markdown {
						t.Errorf("%s: report merge's Markdown\n%s\nrun's\n%s", what, merged.markdown, whole.markdown)
					}
					mv, wv := merged.rep.Verdict(), whole.rep.Verdict()
					mj, _ := json.Marshal(mv)
					wj, _ := json.Marshal(wv)
					if string(mj) != string(wj) || merged.rep.Level != whole.rep.Level || merged.rep.LevelReason != whole.rep.LevelReason {
						t.Errorf("%s: merged level %s (%s), verdict %s; run's level %s (%s), verdict %s", what,
							merged.rep.Level, merged.rep.LevelReason, mv.Line(), whole.rep.Level, whole.rep.LevelReason, wv.Line())
					}
					mq, _ := json.Marshal(merged.rep.Requirements)
					wq, _ := json.Marshal(whole.rep.Requirements)
					if string(mq) != string(wq) {
						t.Errorf("%s: merged requirements %s; run's %s", what, mq, wq)
					}
				}
			}
		})
	}
}

// reported is what a run or a merge exited with and reported.
type reported struct {
	code             int
	stdout, markdown string
	rep              *runner.Report
}

// run runs cupel-conform with args (the command first, "report merge" as
// one), the target level and a JSON and a Markdown report written under
// prefix.
func run(t *testing.T, prefix string, args []string, target runner.Level) reported {
	t.Helper()
	cmd := []string{args[0]}
	if args[0] == "report merge" {
		cmd = []string{"report", "merge"}
	}
	full := append(cmd, "--json", prefix+".json", "--markdown", prefix+".md")
	if target != "" {
		full = append(full, "--require-level", string(target))
	}
	code, stdout, stderr := cupelConform(append(full, args[1:]...)...)
	if code == 2 {
		t.Fatalf("%v: exit 2\n%s%s", full, stdout, stderr)
	}
	rep, err := report.ReadReport(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(prefix + ".md")
	if err != nil {
		t.Fatal(err)
	}
	return reported{code, stdout, string(md), rep}
}
