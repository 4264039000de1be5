package conformginkgo

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
)

// LevelSpec is the name of the spec that judges the run's level, declared
// only when the options have a target.
const LevelSpec = "conformance level"

// gate is the state of one Gate in one Ginkgo process.
type gate struct {
	newImpl func() runner.Implementation
	opts    runner.Options
	suite   *vector.Suite

	once    sync.Once
	x       *runner.Execution
	entries map[string]runner.SuiteFile
	err     error
	mu      sync.Mutex // serialises cases: one session per process
}

// Gate declares the conformance gate in the current Ginkgo container: a
// spec per case of the suite opts select, and the level spec when
// opts.RequireLevel is set (see the package documentation). newImpl is
// called once per Ginkgo process, on its first spec. The suite is loaded
// when Gate is called; a suite that does not load fails a spec of its own.
func Gate(newImpl func() runner.Implementation, opts runner.Options) {
	g := &gate{newImpl: newImpl, opts: opts}
	suite, err := vector.LoadSuite(opts.Suite)
	if err != nil {
		ginkgo.It("loads the conformance suite", func() { ginkgo.Fail("conformginkgo: " + err.Error()) })
		return
	}
	g.suite = suite
	cases, err := runner.Select(suite, opts)
	if err != nil {
		ginkgo.It("selects the conformance cases", func() { ginkgo.Fail("conformginkgo: " + err.Error()) })
		return
	}
	var entries []ginkgo.TableEntry
	for _, c := range cases {
		entries = append(entries, ginkgo.Entry(c.ID, c.ID, ginkgo.Label(c.Tier, c.Stage)))
	}
	if !opts.Filtered() {
		for _, se := range suite.Errors {
			entries = append(entries, ginkgo.Entry(se.ID(), se.ID(), ginkgo.Label(se.Tier(), se.Stage(), "suite-error")))
		}
	}
	ginkgo.DescribeTable("cases", g.runCase, entries)
	if opts.RequireLevel != "" && opts.RequireLevel != runner.LevelNone {
		ginkgo.It(LevelSpec, ginkgo.Serial, ginkgo.Label("level"), g.level)
	}
}

// start starts this process's execution, once.
func (g *gate) start() error {
	g.once.Do(func() {
		opts := g.opts
		opts.RequireLevel = "" // judged by the level spec, and a narrowed run takes none
		g.x, g.err = runner.Start(context.Background(), g.newImpl(), g.suite, opts)
		if g.err == nil {
			g.entries = map[string]runner.SuiteFile{}
			for _, e := range g.x.Entries() {
				g.entries[e.ID] = e
			}
		}
	})
	return g.err
}

// target is the target each case is classified against: none when the
// Ginkgo run is narrowed, as the run's verdict then has none.
func (g *gate) target() runner.Level {
	if narrowed() {
		return ""
	}
	return g.opts.RequireLevel
}

// narrowed reports whether this Ginkgo run selects specs by label, focus
// or skip.
func narrowed() bool {
	c, _ := ginkgo.GinkgoConfiguration()
	return c.LabelFilter != "" || len(c.FocusStrings) > 0 || len(c.SkipStrings) > 0 || len(c.FocusFiles) > 0 || len(c.SkipFiles) > 0
}

// runCase is the spec of the case (or suite error) id.
func (g *gate) runCase(ctx ginkgo.SpecContext, id string) {
	if err := g.start(); err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	if why := g.x.Infrastructure(); why != "" {
		ginkgo.Fail("conformginkgo: " + why)
	}
	e, ok := g.entries[id]
	if !ok {
		ginkgo.Fail(fmt.Sprintf("conformginkgo: no case %s in the suite", id))
	}
	g.mu.Lock()
	c := g.x.RunEntry(ctx, e)
	g.mu.Unlock()
	if g.target() != "" {
		record(c) // for the level spec, which exists only with a target and runs only unnarrowed
	}
	switch runner.Classify(c, g.target()) {
	case runner.ClassGated:
		ginkgo.Fail(g.describe(c))
	case runner.ClassWarning:
		ginkgo.Skip(fmt.Sprintf("%s case %s, not required for %s: %s", c.Tier, c.Outcome(), g.opts.RequireLevel.Title(), c.Message))
	case runner.ClassNotRun:
		ginkgo.Fail(g.describe(c)) // after an infrastructure error: no verdict
	case runner.ClassOK:
		if c.Status == protocol.StatusXFail {
			ginkgo.Skip("expected failure: " + c.Message)
		}
	}
}

// level is the level spec: it gathers the results of every process and
// renders the run's verdict on the level.
func (g *gate) level() {
	if narrowed() {
		ginkgo.Skip("a narrowed run claims no level (it is judged strictly on the cases it ran)")
	}
	if err := g.start(); err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	rep := g.x.Finish()
	rep.RequireLevel = g.opts.RequireLevel
	if err := gather(rep); err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	v := rep.Verdict()
	if rep.Infrastructure != "" || v.Infrastructure {
		ginkgo.Fail("conformginkgo: " + v.Line())
	}
	if v.Target == "" {
		ginkgo.Skip("the run claims no level: " + v.LevelText)
	}
	if !v.Level.AtLeast(v.Target) {
		ginkgo.Fail(fmt.Sprintf("%s misses the target %s (%s)\n%s", v.LevelText, v.Target.Title(), rep.LevelReason, v.Line()))
	}
	ginkgo.GinkgoWriter.Println(v.Line())
}

// describe is the failure message of a gated case: its status and the
// failure detail every report shows (message, diff, inputs, stderr).
func (g *gate) describe(c runner.CaseResult) string {
	d := strings.TrimRight(report.FailureDetail(c, g.suite), "\n")
	if strings.HasPrefix(strings.ToLower(d), string(c.Status)+":") {
		return d
	}
	return string(c.Status) + ": " + d
}

// shared is the directory where the processes of a parallel Ginkgo run
// leave their results for the level spec, or "" when the run is not
// parallel. It is named after the run's server address, which every
// process of the run shares and no other run has.
func shared() string {
	s, _ := ginkgo.GinkgoConfiguration()
	if s.ParallelTotal <= 1 || s.ParallelHost == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s.ParallelHost))
	return filepath.Join(os.TempDir(), "cupel-conformginkgo-"+hex.EncodeToString(sum[:8]))
}

// record leaves c for the level spec of a parallel run.
func record(c runner.CaseResult) {
	dir := shared()
	if dir == "" {
		return
	}
	line, err := json.Marshal(c)
	if err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("process-%d.jsonl", ginkgo.GinkgoParallelProcess())), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	_, werr := f.Write(append(line, '\n'))
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		ginkgo.Fail("conformginkgo: " + werr.Error())
	}
}

// gather puts into rep (process 1's report) the results the other
// processes recorded, and recounts it.
func gather(rep *runner.Report) error {
	dir := shared()
	if dir == "" {
		return nil
	}
	defer os.RemoveAll(dir)
	files, err := filepath.Glob(filepath.Join(dir, "process-*.jsonl"))
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, c := range rep.Cases {
		index[c.ID] = i
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var c runner.CaseResult
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
			if i, ok := index[c.ID]; ok && rep.Cases[i].Status == protocol.StatusSkip {
				rep.Cases[i] = c
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	rep.Recount()
	return nil
}
