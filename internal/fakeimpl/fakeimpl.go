// Package fakeimpl is the table of fake implementations that the runner's
// front ends (the CLI, the Go Run and Check API, the go test gate and the
// offline export and verify) are tested with: one that conforms fully, and
// each of the ways an implementation can fall short. They answer the
// cases of a suite from its own expected results (package oracleimpl) and then
// break their answers as their names say, so every verdict they earn is
// known in advance: see Impl.Want.
package fakeimpl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The names of the implementations.
const (
	Conformant       = "conformant"
	OptionalFailures = "optional-failures"
	FailingRequired  = "failing-required"
	Partial          = "partial"
	Crashing         = "crashing"
	Slow             = "slow"
	OutOfRange       = "out-of-range"
)

// Names lists the implementations in table order.
var Names = []string{Conformant, OptionalFailures, FailingRequired, Partial, Crashing, Slow, OutOfRange}

// CrashID and SlowID are the cases the crashing and the slow
// implementations do not answer (ids of the fixture suite,
// runner/testdata/suite).
const (
	CrashID = "required/placing/u-shaped-seven-items"
	SlowID  = "required/scoring/recency-basic"
)

// SlowFor is how long the slow implementation takes over SlowID (unless
// its context ends first).
const SlowFor = time.Minute

// New returns the implementation called name over suite, or nil for an
// unknown name.
func New(name string, suite *casefile.Suite) protocol.Implementation {
	o := oracleimpl.New(suite)
	o.Info.Name = "fakeimpl-" + name
	switch name {
	case Conformant:
		return o
	case OptionalFailures, FailingRequired:
		tier := casefile.TierOptional
		if name == FailingRequired {
			tier = casefile.TierRequired
		}
		o.Mutate = func(c *casefile.Case, r *protocol.Result) {
			if c.Tier == tier {
				Break(r)
			}
		}
		return o
	case Partial:
		o.Info.Capabilities.Stages = []string{casefile.StageScoring, casefile.StagePlacing}
		return partial{o}
	case Crashing:
		return crashing{o}
	case Slow:
		return slow{o}
	case OutOfRange:
		o.Mutate = OutOfRangeIndex
		return o
	}
	return nil
}

// Break turns a correct result into a wrong one: an expected rejection
// becomes an empty success, scores move by 0.25, the integer fields of the
// selection report's first exclusion by 1, a selection loses its last
// item (or gains item 0), an order is reversed (or emptied, or given item
// 0).
func Break(r *protocol.Result) {
	if r.Kind != protocol.ResultOK {
		*r = protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{}}
		return
	}
	out := r.Output
	for i := range out.Scores {
		out.Scores[i].Score += 0.25
	}
	if d := out.Diagnostics; d != nil && len(d.Excluded) > 0 {
		// The first exclusion's reason fields are off by one.
		for k, v := range d.Excluded[0].Reason {
			if n, ok := v.(int64); ok {
				d.Excluded[0].Reason[k] = n + 1
			}
		}
	}
	switch {
	case len(out.Selected) > 0:
		out.Selected = out.Selected[:len(out.Selected)-1]
	case out.Scores == nil && out.Ordered == nil:
		out.Selected = []int{0}
	}
	switch {
	case len(out.Ordered) > 1:
		slices.Reverse(out.Ordered)
	case len(out.Ordered) == 1:
		out.Ordered = []int{}
	case out.Ordered != nil:
		out.Ordered = []int{0}
	}
}

// OutOfRangeIndex makes item indexes of a successful result point past
// the inputs: every score's index, the first selected item, and for an
// order the first item. A pipeline result whose selection report the case
// checks keeps its order and gets the bad indexes in the report instead
// (included 99, excluded -1); one whose report the case does not check
// gets both a bad order and such a report, which the text report shows.
func OutOfRangeIndex(c *casefile.Case, r *protocol.Result) {
	if r.Kind != protocol.ResultOK || r.Output == nil {
		return
	}
	out := r.Output
	const bad = 99
	for i := range out.Scores {
		out.Scores[i].Index = bad
	}
	if len(out.Selected) > 0 {
		out.Selected[0] = bad
	}
	badReport := func(d *protocol.Diagnostics) {
		d.Included = append(d.Included, protocol.DiagnosticItem{Index: bad, Score: 1, Reason: map[string]any{"reason": "Scored"}})
		for i := range d.Included {
			d.Included[i].Index = bad
		}
		d.Excluded = append(d.Excluded, protocol.DiagnosticItem{Index: -1, Reason: map[string]any{"reason": "BudgetExceeded", "item_tokens": int64(1), "available_tokens": int64(0)}})
		for i := range d.Excluded {
			d.Excluded[i].Index = -1
		}
	}
	switch {
	case c.Stage == casefile.StagePipeline && c.Expect.Diagnostics != nil && out.Diagnostics != nil:
		badReport(out.Diagnostics)
		return
	case c.Stage == casefile.StagePipeline:
		out.Diagnostics = &protocol.Diagnostics{}
		badReport(out.Diagnostics)
	}
	if len(out.Ordered) > 0 {
		out.Ordered[0] = bad
	}
	if out.Scores == nil && out.Selected == nil && out.Ordered == nil {
		out.Ordered = []int{bad}
	}
}

// partial answers "unsupported" for the slicing and pipeline stages.
type partial struct{ *oracleimpl.Oracle }

func (p partial) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if req.Stage == casefile.StageSlicing || req.Stage == casefile.StagePipeline {
		return protocol.Result{Kind: protocol.ResultUnsupported, Reason: req.Stage + " is not implemented yet"}, nil
	}
	return p.Oracle.Run(ctx, req)
}

// crashing panics on CrashID.
type crashing struct{ *oracleimpl.Oracle }

func (c crashing) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if req.ID == CrashID {
		panic("fakeimpl: crashing on " + req.ID)
	}
	return c.Oracle.Run(ctx, req)
}

// slow takes SlowFor over SlowID, or until ctx ends.
type slow struct{ *oracleimpl.Oracle }

func (s slow) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if req.ID == SlowID {
		select {
		case <-ctx.Done():
			return protocol.Result{}, ctx.Err()
		case <-time.After(SlowFor):
		}
	}
	return s.Oracle.Run(ctx, req)
}

// Main is the implementation $TESTIMPL over the suite in $TESTIMPL_SUITE
// as a process: with no arguments it serves the cupel-conform/1 protocol
// on stdin and stdout (the crashing one dies on CrashID, with a line on
// stderr); with "answer CASES RESULTS" it answers an exported cases file
// and writes a results file for an offline verify (a crash leaves its
// case without a result; each case gets 200ms). It returns the exit code.
func Main(args []string) int {
	name := os.Getenv("TESTIMPL")
	suite, err := casefile.LoadSuite(os.DirFS(os.Getenv("TESTIMPL_SUITE")))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeimpl:", err)
		return 1
	}
	impl := New(name, suite)
	if impl == nil {
		fmt.Fprintf(os.Stderr, "fakeimpl: unknown implementation %q\n", name)
		return 1
	}
	if len(args) == 3 && args[0] == "answer" {
		if err := answer(impl, args[1], args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "fakeimpl:", err)
			return 1
		}
		return 0
	}
	if name == Crashing {
		impl = exitOnCrash{impl}
	}
	if err := protocol.Serve(context.Background(), impl, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fakeimpl:", err)
		return 1
	}
	return 0
}

// exitOnCrash turns the crashing implementation's panic into what a
// crashing process does: a line on stderr and an exit.
type exitOnCrash struct{ protocol.Implementation }

func (e exitOnCrash) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	if req.ID == CrashID {
		fmt.Fprintln(os.Stderr, "fakeimpl: segmentation violation on "+req.ID)
		os.Exit(2)
	}
	return e.Implementation.Run(ctx, req)
}

// answer runs impl over the cases file and writes the results file.
func answer(impl protocol.Implementation, casesPath, resultsPath string) (err error) {
	in, err := os.Open(casesPath)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := impl.Hello(context.Background())
	if err != nil {
		return err
	}
	out, err := os.Create(resultsPath)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriter(out)
	if err := writeLine(w, protocol.NewHelloResponse(info)); err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, protocol.MaxLine)
	for sc.Scan() {
		var m protocol.RunMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return err
		}
		res, ok := answerOne(impl, m.Request)
		if !ok {
			continue
		}
		if err := writeLine(w, protocol.ResultMessage{Type: protocol.TypeResult, Seq: m.Seq, ID: m.ID, Result: res}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return w.Flush()
}

// answerOne runs one case; ok is false when the implementation crashed.
func answerOne(impl protocol.Implementation, req protocol.Request) (res protocol.Result, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			ok = false
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := impl.Run(ctx, req)
	if err != nil {
		return protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "internal", Message: err.Error()}}, true
	}
	return res, true
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Want is the outcome the implementation called name earns on c, live
// (in process or as a process).
func Want(name string, c *casefile.Case) protocol.Outcome {
	expectsRejection := c.Expect.Error != "" || c.Expect.ConstructionError
	switch {
	case name == OptionalFailures && c.Tier == casefile.TierOptional,
		name == FailingRequired && c.Tier == casefile.TierRequired:
		return protocol.OutcomeFail
	case name == Partial && (c.Stage == casefile.StageSlicing || c.Stage == casefile.StagePipeline):
		return protocol.OutcomeUnsupported
	case name == Crashing && c.ID == CrashID:
		return protocol.OutcomeCrash
	case name == Slow && c.ID == SlowID:
		return protocol.OutcomeTimeout
	case name == OutOfRange && !expectsRejection:
		return protocol.OutcomeFail
	}
	return protocol.OutcomePass
}

// WantOffline is the outcome the implementation earns on c through an
// offline exchange, where nothing times out: the slow implementation's
// answer is its error (it ran out of its 200ms). A crash leaves no result,
// which verify refuses as a whole (see Main).
func WantOffline(name string, c *casefile.Case) protocol.Outcome {
	if name == Slow && c.ID == SlowID {
		return protocol.OutcomeError
	}
	return Want(name, c)
}

// Level is the level the implementation called name reaches.
func Level(name string) runner.Level {
	switch name {
	case Conformant:
		return runner.LevelFullyConformant
	case OptionalFailures:
		return runner.LevelConformant
	}
	return runner.LevelNone
}
