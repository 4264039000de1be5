package protocol

// Outcome is what the runner judged one case: one of the ten outcomes
// below (docs/vocabulary.md). It is not the implementation's answer,
// which is a [Result]'s Kind.
type Outcome string

// Case outcomes.
const (
	// OutcomePass is a right answer.
	OutcomePass Outcome = "pass"
	// OutcomeFail is a wrong answer.
	OutcomeFail Outcome = "fail"
	// OutcomeError is an answer of kind "error", or a broken protocol.
	OutcomeError Outcome = "error"
	// OutcomeCrash is a process that died or could not start.
	OutcomeCrash Outcome = "crash"
	// OutcomeTimeout is no answer in time.
	OutcomeTimeout Outcome = "timeout"
	// OutcomeUnsupported is an answer of kind "unsupported".
	OutcomeUnsupported Outcome = "unsupported"
	// OutcomeNotRun is a case that could not run: the run stopped on an
	// infrastructure error or a signal.
	OutcomeNotRun Outcome = "not-run"
	// OutcomeXFail is an expected failure that failed as expected.
	OutcomeXFail Outcome = "xfail"
	// OutcomeSkip is a case left out on purpose: by the filters, or after
	// fail fast stopped the run.
	OutcomeSkip Outcome = "skip"
	// OutcomeXPass is an expected failure that passed.
	OutcomeXPass Outcome = "xpass"
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{OutcomePass, OutcomeFail, OutcomeError, OutcomeCrash, OutcomeTimeout,
	OutcomeUnsupported, OutcomeNotRun, OutcomeXFail, OutcomeSkip, OutcomeXPass}
