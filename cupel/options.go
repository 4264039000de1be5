package cupel

// RunOption configures one run of a [Pipeline]. Every run method
// ([Pipeline.Run], [Pipeline.RunContext], [Pipeline.RunStream] and
// [Pipeline.RunStreamContext]) takes the same options; the zero RunOption
// does nothing. The options that shape a micro-batch stream
// ([WithBatchSize], [WithFillTolerance], [WithMaxCandidates]) make a batch
// run (Run, RunContext) fail with a [*ValidationError] wrapping
// [ErrInvalidConfig], since a batch run sees all its items at once and
// could not honour them. A RunOption is a small value: passing options
// allocates nothing.
type RunOption struct {
	kind       optKind
	trace      TraceCollector
	onOverflow func(OverflowEvent)
	report     *SelectionReport
	n          int
}

type optKind uint8

const (
	optTrace optKind = iota + 1
	optOverflow
	optReport
	optBatchSize
	optFillTolerance
	optMaxCandidates
)

// name is the name of the function that makes an option of kind k.
func (k optKind) name() string {
	return [...]string{"", "WithTrace", "WithOnOverflow", "WithReport", "WithBatchSize", "WithFillTolerance", "WithMaxCandidates"}[k]
}

// runConfig is what the options of one run set.
type runConfig struct {
	trace         TraceCollector   // the first collector of WithTrace
	moreTraces    []TraceCollector // the others
	onOverflow    func(OverflowEvent)
	report        *SelectionReport
	batchSize     int
	fillTolerance int
	maxCandidates int
	// streamOnly names the first stream-only option given, for the error
	// of a batch run.
	streamOnly string
}

// newRunConfig merges opts; a later option of a kind replaces an earlier
// one, but for WithTrace, which adds a collector.
func newRunConfig(opts []RunOption) runConfig {
	var c runConfig
	for _, v := range opts {
		switch v.kind {
		case optTrace:
			switch {
			case v.trace == nil || isNil(v.trace):
			case c.trace == nil:
				c.trace = v.trace
			default:
				c.moreTraces = append(c.moreTraces, v.trace)
			}
		case optOverflow:
			c.onOverflow = v.onOverflow
		case optReport:
			c.report = v.report
		case optBatchSize:
			c.markStream(v.kind)
			c.batchSize = v.n
		case optFillTolerance:
			c.markStream(v.kind)
			c.fillTolerance = v.n
		case optMaxCandidates:
			c.markStream(v.kind)
			c.maxCandidates = v.n
		}
	}
	return c
}

// check validates the options for a batch run (stream false) or a
// streamed one.
func (c *runConfig) check(stream bool) error {
	switch {
	case !stream && c.streamOnly != "":
		return invalidConfig("RunOption", c.streamOnly, nil, "applies to RunStream and RunStreamContext only: a batch run sees all its items at once")
	case c.batchSize < 0:
		return invalidConfig("RunOption", "WithBatchSize", c.batchSize, "must be >= 0")
	case c.fillTolerance < 0:
		return invalidConfig("RunOption", "WithFillTolerance", c.fillTolerance, "must be >= 0")
	case c.maxCandidates < 0:
		return invalidConfig("RunOption", "WithMaxCandidates", c.maxCandidates, "must be >= 0")
	}
	return nil
}

func (c *runConfig) markStream(k optKind) {
	if c.streamOnly == "" {
		c.streamOnly = k.name()
	}
}

// WithTrace has the run record its events in t; a collector that is not
// Enabled costs nothing. Given more than once, every collector receives
// every event (and, when it is a [ShortfallRecorder], the shortfalls).
func WithTrace(t TraceCollector) RunOption {
	return RunOption{kind: optTrace, trace: t}
}

// WithOnOverflow has the run call f synchronously when the selection
// exceeds targetTokens under OverflowProceed.
func WithOnOverflow(f func(OverflowEvent)) RunOption {
	return RunOption{kind: optOverflow, onOverflow: f}
}

// WithReport has the run write its [SelectionReport] into *dst when it
// succeeds: why each item was included or excluded, with every stage and
// item event in dst.Events (a [DiagnosticTraceCollector] at [DetailItem]
// records it). *dst is left as it was when the run fails.
//
//	var report cupel.SelectionReport
//	result, err := pipeline.Run(items, budget, cupel.WithReport(&report))
//
// For a report whose event list keeps only the stage events, pass
// WithTrace(NewDiagnosticTraceCollector(DetailStage, nil)) and call the
// collector's Report instead.
func WithReport(dst *SelectionReport) RunOption {
	return RunOption{kind: optReport, report: dst}
}

// WithBatchSize sets the number of candidates per micro-batch of a
// streamed run (> 0; 0 means [DefaultStreamBatchSize]). Stream runs only.
func WithBatchSize(n int) RunOption {
	return RunOption{kind: optBatchSize, n: n}
}

// WithMaxCandidates sets the most candidates a streamed run pulls (0: no
// limit). Stream runs only.
func WithMaxCandidates(n int) RunOption {
	return RunOption{kind: optMaxCandidates, n: n}
}

// WithFillTolerance sets the number of tokens (>= 0) that may be left of
// the target when the budget counts as full: after a micro-batch that
// leaves at most that many, no further candidate is pulled. 0, the
// default, means the budget is full only when nothing is left of it. It
// configures a streamed run (RunStream, RunStreamContext) and a
// slicer.Stream (slicer.NewStream) alike.
func WithFillTolerance(tokens int) RunOption {
	return RunOption{kind: optFillTolerance, n: tokens}
}

// setTrace installs the run's collectors: the enabled ones of cfg and,
// when cfg asks for a report, a DiagnosticTraceCollector at DetailItem,
// which it returns. One collector is used as is (a
// DiagnosticTraceCollector takes the Slice stage's exclusions in one call,
// as a [SliceExclusionRecorder]); several
// are fed through a tee. n is about the number of item decisions.
func (r *run) setTrace(cfg *runConfig, n int) *DiagnosticTraceCollector {
	var report *DiagnosticTraceCollector
	if cfg.report != nil {
		report = NewDiagnosticTraceCollector(DetailItem, nil)
	}
	var tee teeCollector
	add := func(t TraceCollector) {
		switch {
		case t == nil || !t.Enabled():
		case r.trace == nil:
			r.trace = t
		case tee == nil:
			tee = teeCollector{r.trace, t}
		default:
			tee = append(tee, t)
		}
	}
	add(cfg.trace)
	for _, t := range cfg.moreTraces {
		add(t)
	}
	if report != nil {
		add(report)
	}
	if tee != nil {
		r.trace = tee
	}
	return report
}

// teeCollector hands every event to each of its collectors.
type teeCollector []TraceCollector

func (t teeCollector) Enabled() bool { return true }

func (t teeCollector) RecordStageEvent(e TraceEvent) {
	for _, c := range t {
		c.RecordStageEvent(e)
	}
}

func (t teeCollector) RecordItemEvent(e TraceEvent) {
	for _, c := range t {
		c.RecordItemEvent(e)
	}
}

// RecordShortfalls implements [ShortfallRecorder] for the collectors that do.
func (t teeCollector) RecordShortfalls(s []CountRequirementShortfall) {
	for _, c := range t {
		if sr, ok := c.(ShortfallRecorder); ok {
			sr.RecordShortfalls(s)
		}
	}
}
