package runner_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The Python example implementation, relative to this package.
const pythonImpl = "../examples/python-impl/cupel_impl.py"

// plantedBug is a subtle bug planted in a copy of the Python example by a
// textual patch, made at test time.
type plantedBug struct {
	name     string
	old, new string
	// class is the divergence explore must report.
	class string
}

// pythonBugs are bugs that no vector of the embedded suite catches, each
// in a different place of the program.
var pythonBugs = []plantedBug{
	{
		name: "a u-shaped tie broken the wrong way, only between negative scores",
		old: `        if math.isnan(score):
            return (1, 0.0, position)
        return (0, -score, position)`,
		new: `        if math.isnan(score):
            return (1, 0.0, position)
        return (0, -score, -position if score < 0 else position)`,
		class: "placing / u-shaped / order",
	},
	{
		name: "a priority score off for tied negative priorities among at most six items",
		old:  `    return rank_scores([it.get("priority") for it in items])`,
		new: `    keys = [it.get("priority") for it in items]
    scores = rank_scores(keys)
    present = sorted(k for k in keys if k is not None)
    for i, key in enumerate(keys):
        if key is not None and key < 0 and 1 < len(present) <= 6:
            scores[i] = (bisect.bisect_right(present, key) - 1) / (len(present) - 1)
    return scores`,
		class: "scoring / priority / scores",
	},
	{
		name: "chronological order at microsecond precision",
		old: `        if ts is None:
            return (1, 0, position)
        return (0, ts, position)`,
		new: `        if ts is None:
            return (1, 0, position)
        return (0, ts // 1000, position)`,
		class: "placing / chronological / order",
	},
	{
		name:  "a recency timestamp at the Unix epoch read as absent",
		old:   `    return rank_scores([timestamp_key(it) for it in items])`,
		new:   `    return rank_scores([timestamp_key(it) or None for it in items])`,
		class: "scoring / recency / scores",
	},
}

// pythonCrash makes the program exit on a negative hint among three or
// more items.
var pythonCrash = plantedBug{
	name: "an exit on a negative hint among three or more items",
	old: `        hint = decode_float(it.get("futureRelevanceHint"))
`,
	new: `        hint = decode_float(it.get("futureRelevanceHint"))
        if hint is not None and hint < 0 and len(items) >= 3:
            sys.exit(70)
`,
	class: "scoring / reflexive / crash",
}

// python3 returns the interpreter, or skips (fails under CI=true).
func python3() string {
	GinkgoHelper()
	return testtool.Python3(GinkgoT(), "the tests against the Python example")
}

// plant writes a copy of the Python example with bug b into a temporary
// directory and returns its path.
func plant(b plantedBug) string {
	GinkgoHelper()
	src, err := os.ReadFile(pythonImpl)
	Expect(err).NotTo(HaveOccurred())
	Expect(strings.Count(string(src), b.old)).To(Equal(1), "the patch for %q no longer applies to %s", b.name, pythonImpl)
	path := filepath.Join(GinkgoT().TempDir(), "cupel_impl.py")
	Expect(os.WriteFile(path, []byte(strings.Replace(string(src), b.old, b.new, 1)), 0o644)).To(Succeed())
	return path
}

func pythonProcess(py, script string) *protocol.Process {
	return protocol.NewProcess(protocol.ProcessOptions{Argv: []string{py, script}, StartupTimeout: 20 * time.Second})
}

// suiteVerdict runs the embedded suite and returns the level and each
// case's status.
func suiteVerdict(impl protocol.Implementation) (runner.Level, map[string]protocol.Outcome) {
	GinkgoHelper()
	rep, err := runner.Run(ctx(), impl, runner.Options{})
	Expect(err).NotTo(HaveOccurred())
	Expect(rep.Infrastructure).To(BeEmpty())
	st := map[string]protocol.Outcome{}
	for _, c := range rep.Cases {
		st[c.ID] = c.Outcome
	}
	return rep.Level, st
}

var _ = Describe("Explore against copies of the Python example with a planted bug", Ordered, func() {
	var py string
	var level runner.Level
	var statuses map[string]protocol.Outcome
	BeforeAll(func() {
		if raceEnabled {
			Skip("the race detector is on: explore against copies of the Python example runs only without -race (it tests a Python program, not Go concurrency, and takes about two minutes)")
		}
		py = python3()
		level, statuses = suiteVerdict(pythonProcess(py, pythonImpl))
		rep, err := explore.Run(ctx(), pythonProcess(py, pythonImpl), explore.Options{Seed: 1, Cases: 2000})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Divergences).To(BeEmpty(), "the unmodified example agrees with go-cupel")
		Expect(rep.Stages).To(Equal([]string{casefile.StageScoring, casefile.StagePlacing}), "only what hello declares")
		Expect(rep.Skipped).To(BeZero(), "no generated case is unsupported")
	})

	for _, bug := range append(slices.Clone(pythonBugs), pythonCrash) {
		It("finds "+bug.name+" within 2,000 cases, shrinks it to at most 5 items, and writes a vector that fails the copy and passes go-cupel", func() {
			script := plant(bug)
			if bug.class != pythonCrash.class {
				// No vector of the embedded suite catches it: the verdict
				// is the unmodified program's, case by case.
				lvl, st := suiteVerdict(pythonProcess(py, script))
				Expect(lvl).To(Equal(level))
				Expect(st).To(Equal(statuses))
			}

			out := GinkgoT().TempDir()
			// Seed 1 finds each bug within its first 200 cases; every case
			// is a round trip to Python, and each crash a new interpreter.
			rep, err := explore.Run(ctx(), pythonProcess(py, script), explore.Options{Seed: 1, Cases: 2000, Out: out})
			Expect(err).NotTo(HaveOccurred())
			Expect(rep.Infrastructure).To(BeEmpty())
			Expect(rep.Err()).To(MatchError(runner.ErrFailed))
			Expect(rep.Divergences).To(HaveLen(1), "one bug, one class")
			d := rep.Divergences[0]
			GinkgoWriter.Printf("%s: %s at index %d (%d cases), %d -> %d items in %d runs\n", bug.name, d.Class, d.Index, d.Count, d.OriginalItems, len(d.Case.Input.Items), d.ShrinkRuns)
			Expect(d.Class).To(Equal(bug.class))
			Expect(d.Index).To(BeNumerically("<", 2000))
			Expect(len(d.Case.Input.Items)).To(BeNumerically("<=", 5))
			Expect(d.File).To(BeAnExistingFile())

			// cupel-conform run --suite OUT reproduces it, and go-cupel
			// passes it.
			bad, err := runner.Run(ctx(), pythonProcess(py, script), runner.Options{Suite: os.DirFS(out)})
			Expect(err).NotTo(HaveOccurred())
			Expect(bad.Cases).To(HaveLen(1))
			want := protocol.OutcomeFail
			if d.Kind == "crash" {
				want = protocol.OutcomeCrash
			}
			Expect(bad.Cases[0].Outcome).To(Equal(want), bad.Cases[0].Message)
			good, err := runner.Run(ctx(), runner.Engine(), runner.Options{Suite: os.DirFS(out)})
			Expect(err).NotTo(HaveOccurred())
			Expect(good.Cases[0].Outcome).To(Equal(protocol.OutcomePass), good.Cases[0].Message)
			// And the unmodified example passes it too.
			orig, err := runner.Run(ctx(), pythonProcess(py, pythonImpl), runner.Options{Suite: os.DirFS(out)})
			Expect(err).NotTo(HaveOccurred())
			Expect(orig.Cases[0].Outcome).To(Equal(protocol.OutcomePass), orig.Cases[0].Message)
		})
	}
})
