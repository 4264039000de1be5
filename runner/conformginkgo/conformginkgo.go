package conformginkgo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// LevelSpec is the name of the spec that judges the run's level.
const LevelSpec = "conformance level"

// gate is the state of one Gate in one Ginkgo process.
type gate struct {
	newImpl func() runner.Implementation
	opts    runner.Options
	suite   *casefile.Suite
	loc     types.CodeLocation // the caller's Gate call, where every spec of the gate points

	once    sync.Once
	x       *runner.Execution
	entries map[string]runner.SuiteFile
	err     error
	mu      sync.Mutex // serialises cases: one session per process

	smu     sync.Mutex // guards shown and stopper
	shown   int        // gated failures this process showed in full
	stopper string     // the spec that said why the run has no verdict
}

// Gate declares the conformance gate in the current Ginkgo container: a
// spec per case of the suite opts select, and the level spec (see the
// package documentation). Every spec is located at the call of Gate, so a
// failure points there. newImpl is called once per Ginkgo process, on its
// first spec. The suite is loaded when Gate is called; a suite that does
// not load fails a spec of its own.
func Gate(newImpl func() runner.Implementation, opts runner.Options) {
	loc := types.NewCodeLocation(1)
	g := &gate{newImpl: newImpl, opts: opts, loc: loc}
	suite, err := casefile.LoadSuite(opts.Suite)
	if err != nil {
		ginkgo.It("loads the conformance suite", loc, func() { ginkgo.Fail("conformginkgo: " + err.Error()) })
		return
	}
	g.suite = suite
	cases, err := runner.Select(suite, opts)
	if err != nil {
		ginkgo.It("selects the conformance cases", loc, func() { ginkgo.Fail("conformginkgo: " + err.Error()) })
		return
	}
	var entries []ginkgo.TableEntry
	for _, c := range cases {
		entries = append(entries, ginkgo.Entry(c.ID, c.ID, ginkgo.Label(c.Tier, c.Stage), loc))
	}
	if !opts.Filtered() {
		for _, se := range suite.Errors {
			entries = append(entries, ginkgo.Entry(se.ID(), se.ID(), ginkgo.Label(se.Tier(), se.Stage(), "suite-error"), loc))
		}
	}
	ginkgo.DescribeTable("cases", g.runCase, entries, loc)
	// Ginkgo orders the specs of one location by their containers' texts
	// ("verdict" after "cases"), and with --randomize-all by priority.
	ginkgo.Describe("verdict", loc, func() {
		ginkgo.It(LevelSpec, ginkgo.Serial, ginkgo.SpecPriority(-1), ginkgo.Label("level"), loc, g.level)
		ginkgo.ReportAfterEach(g.cleanUp, loc)
	})
}

// start starts this process's execution, once.
func (g *gate) start() error {
	g.once.Do(func() {
		opts := g.opts
		opts.RequireLevel = "" // judged by the level spec, and a narrowed run takes none
		g.x, g.err = runner.Start(context.Background(), g.newImpl(), g.suite, opts)
		if g.err == nil {
			g.entries = map[string]runner.SuiteFile{}
			for _, e := range g.x.Files() {
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

// hasTarget reports whether the options have a target level.
func (g *gate) hasTarget() bool {
	return g.opts.RequireLevel != "" && g.opts.RequireLevel != runner.LevelNone
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
		g.stop(id, err.Error(), "")
	}
	g.stopIfNoVerdict(id)
	e, ok := g.entries[id]
	if !ok {
		ginkgo.Fail(fmt.Sprintf("conformginkgo: no case %s in the suite", id))
	}
	g.mu.Lock()
	c := g.x.RunFile(ctx, e)
	g.mu.Unlock()
	if g.target() != "" {
		g.record(c) // for the level spec, which judges only an unnarrowed run with a target
	}
	switch runner.Classify(c, g.target()) {
	case runner.ClassGated:
		ginkgo.Fail(g.describe(c))
	case runner.ClassWarning:
		ginkgo.Skip(fmt.Sprintf("%s case %s, not required for %s: %s", c.Tier, c.Outcome, g.opts.RequireLevel.Title(), c.Message))
	case runner.ClassOK:
		if !c.Ran() {
			if c.Outcome == protocol.OutcomeSkip {
				ginkgo.Skip(c.Message) // another shard's (Options.Shard)
			}
			g.stopIfNoVerdict(id) // the run stopped at this case
			ginkgo.Fail(g.describe(c))
		}
		if c.Outcome == protocol.OutcomeXFail {
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
	if !g.hasTarget() {
		ginkgo.Skip("no target level (Options.RequireLevel): each case passes or fails on its own")
	}
	if err := g.start(); err != nil {
		g.stop(LevelSpec, err.Error(), "")
	}
	g.stopIfNoVerdict(LevelSpec)
	rep := g.x.Finish()
	rep.RequireLevel = g.opts.RequireLevel
	if err := g.gather(rep); err != nil {
		ginkgo.Fail("conformginkgo: " + err.Error())
	}
	if by := g.stopped(); by != "" {
		ginkgo.Skip(fmt.Sprintf("the run has no verdict (the spec of %s says why)", by))
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
// failure detail every report shows (message, diff, inputs, stderr), as
// the text report caps it, then the ids of the requirements it covers. Past the text report's number of failures in
// full, a process gives only the status and message.
func (g *gate) describe(c runner.CaseResult) string {
	g.smu.Lock()
	g.shown++
	full := g.shown <= report.DefaultMaxFailures
	g.smu.Unlock()
	if !full {
		first, _, _ := strings.Cut(c.Message, "\n")
		return fmt.Sprintf("%s (only the first %d failures of each Ginkgo process are shown in full)", outcomeLine(c.Outcome, first), report.DefaultMaxFailures)
	}
	d := strings.TrimRight(report.FailureDetail(c, g.suite), "\n")
	if len(c.Requirements) > 0 {
		d += "\nrequirements: " + strings.Join(c.Requirements, ", ")
	}
	return outcomeLine(c.Outcome, d)
}

// outcomeLine is "outcome: text", saying the outcome once.
func outcomeLine(st protocol.Outcome, text string) string {
	if text == "" {
		return string(st)
	}
	if strings.HasPrefix(strings.ToLower(text), string(st)+":") {
		return text
	}
	return string(st) + ": " + text
}

// stopIfNoVerdict stops the spec id when the run has no verdict: the
// implementation failed to start, a restart budget ran out, or the run
// was interrupted (see stop).
func (g *gate) stopIfNoVerdict(id string) {
	if why := g.x.Infrastructure(); why != "" {
		g.stop(id, why, g.x.InfrastructureStderr())
	}
}

// stop ends the spec id of a run that has no verdict. The first spec of
// the run to meet it (of any process) fails and says why, with the
// implementation's stderr tail; every other spec is skipped, not run.
func (g *gate) stop(id, why, stderr string) {
	if by := g.claim(id); by != id {
		ginkgo.Skip(fmt.Sprintf("not run: %s (the spec of %s says why)", why, by))
	}
	d := report.FailureDetail(runner.CaseResult{Outcome: protocol.OutcomeNotRun, Message: why, Stderr: stderr}, nil)
	ginkgo.Fail("conformginkgo: the run has no verdict: " + strings.TrimRight(d, "\n") +
		"\n(said by this spec alone: the others are skipped, not run)")
}

// claim makes id the spec that says why the run has no verdict, unless
// another spec of the run already is one, and returns the one that is.
func (g *gate) claim(id string) string {
	g.smu.Lock()
	defer g.smu.Unlock()
	if g.stopper != "" {
		return g.stopper
	}
	g.stopper = id
	dir := g.dir()
	if dir == "" {
		return id
	}
	// Among the processes, the first to link its claim to the name
	// "stopper" is the one.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return id
	}
	mine := filepath.Join(dir, fmt.Sprintf("stopper-%d", ginkgo.GinkgoParallelProcess()))
	if err := os.WriteFile(mine, []byte(id), 0o644); err != nil {
		return id
	}
	defer os.Remove(mine)
	err := os.Link(mine, filepath.Join(dir, "stopper"))
	if !errors.Is(err, fs.ErrExist) {
		return id // linked (or no links here: better twice than never)
	}
	if by, err := os.ReadFile(filepath.Join(dir, "stopper")); err == nil && len(by) > 0 {
		g.stopper = string(by)
	}
	return g.stopper
}

// stopped is the spec of any process that said why the run has no
// verdict, or "".
func (g *gate) stopped() string {
	g.smu.Lock()
	defer g.smu.Unlock()
	if g.stopper != "" {
		return g.stopper
	}
	if dir := g.dir(); dir != "" {
		if by, err := os.ReadFile(filepath.Join(dir, "stopper")); err == nil {
			return string(by)
		}
	}
	return ""
}

// runDir is the directory the processes of a parallel Ginkgo run share,
// or "" when the run is not parallel. It is named after what every
// process of the run shares and no other run has: their parent, the
// ginkgo command (its process id and, where the system tells it, its
// start time), and the run's random seed. The level spec removes it
// (see cleanUp).
func runDir() string {
	s, _ := ginkgo.GinkgoConfiguration()
	if s.ParallelTotal <= 1 {
		return ""
	}
	ppid := os.Getppid()
	sum := sha256.Sum256(fmt.Appendf(nil, "%d %s %d", ppid, startTime(ppid), s.RandomSeed))
	return filepath.Join(os.TempDir(), "cupel-conformginkgo-"+hex.EncodeToString(sum[:8]))
}

// startTime is when the process pid started, in the system's units, or
// "" where the system does not say (Linux's /proc does).
func startTime(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The fields after the command, which is in parentheses and may hold
	// anything: state is field 3, starttime field 22.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// dir is this gate's directory in the run's (see runDir), named after
// its location, or "" when the run is not parallel.
func (g *gate) dir() string {
	run := runDir()
	if run == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(g.loc.String()))
	return filepath.Join(run, hex.EncodeToString(sum[:8]))
}

// cleanUp removes this gate's directory of the run after the level spec,
// which Ginkgo reports on process 1 after every other process has
// finished, whether the spec ran, was skipped (a filter, --fail-fast) or
// was interrupted.
func (g *gate) cleanUp(types.SpecReport) {
	if dir := g.dir(); dir != "" {
		_ = os.RemoveAll(dir)
		_ = os.Remove(filepath.Dir(dir)) // unless another gate of the run still has its own
	}
}

// record leaves c for the level spec of a parallel run.
func (g *gate) record(c runner.CaseResult) {
	dir := g.dir()
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
func (g *gate) gather(rep *runner.Report) error {
	dir := g.dir()
	if dir == "" {
		return nil
	}
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
			if i, ok := index[c.ID]; ok && rep.Cases[i].Outcome == protocol.OutcomeSkip {
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
