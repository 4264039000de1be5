package scorer

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Clock supplies the reference time of a [Decay] (the spec's
// TimeProvider). Implementations must be safe for concurrent use when the
// scorer is used concurrently.
type Clock interface {
	Now() time.Time
}

// ClockFunc adapts a function to a Clock: ClockFunc(func() time.Time { return t })
// is a fixed clock for tests.
type ClockFunc func() time.Time

// Now returns f().
func (f ClockFunc) Now() time.Time { return f() }

// SystemClock returns the real clock (time.Now). Decay has no default
// clock: callers pass SystemClock() explicitly (the spec's D042).
func SystemClock() Clock { return ClockFunc(time.Now) }

// DecayCurve maps an item's age (a non-negative duration) to a score in
// [0, 1] (spec chapter 23 (DecayScorer), "Curve Factories"). It is an immutable
// value built by [NewExponentialCurve], [NewWindowCurve] or [NewStepCurve],
// which validate it; the zero DecayCurve is invalid and rejected by
// [NewDecay].
type DecayCurve struct {
	kind    string // "exponential", "window", "step"; "" for the zero value
	d       time.Duration
	windows []StepWindow // never modified after construction
}

// StepWindow is one window of a step curve: ages below MaxAge (and not
// below the previous window's MaxAge) score Score.
type StepWindow struct {
	// MaxAge is the window's exclusive upper age bound; > 0, and greater
	// than the previous window's.
	MaxAge time.Duration
	// Score is the score of ages in the window, in [0, 1].
	Score float64
}

// NewExponentialCurve returns the curve 2^(-age/halfLife), computed as
// math.Pow(2, -ageSeconds/halfLifeSeconds) in float64 seconds: 1.0 at age 0,
// 0.5 at age halfLife, approaching (never below) 0. halfLife must be > 0;
// the error is a [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig] with Field
// "halfLife".
func NewExponentialCurve(halfLife time.Duration) (DecayCurve, error) {
	if halfLife <= 0 {
		return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", "halfLife", halfLife, "halfLife must be greater than zero")
	}
	return DecayCurve{kind: "exponential", d: halfLife}, nil
}

// NewWindowCurve returns the binary curve that scores 1.0 for age < maxAge
// and 0.0 for age >= maxAge (the half-open window [0, maxAge)). maxAge must
// be > 0; the error is a [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig] with
// Field "maxAge".
func NewWindowCurve(maxAge time.Duration) (DecayCurve, error) {
	if maxAge <= 0 {
		return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", "maxAge", maxAge, "maxAge must be greater than zero")
	}
	return DecayCurve{kind: "window", d: maxAge}, nil
}

// NewStepCurve returns the step curve over windows, sorted from youngest to
// oldest: the score of the first window whose MaxAge is strictly greater
// than the age, or the last window's score when the age is at or beyond
// every boundary (an age equal to a boundary falls in the older window).
//
// As the spec requires, windows must not be empty (Field "windows") and no
// MaxAge may be zero. The spec states the list is sorted youngest to oldest
// and that a curve maps ages to [0, 1]; rather than sort silently or score
// outside that range, NewStepCurve also rejects a negative MaxAge, a MaxAge
// not strictly greater than the previous one (such a window could never be
// reached), and a Score that is NaN, infinite or outside [0, 1]. Errors are
// [*cupel.ValidationError]s wrapping [cupel.ErrInvalidConfig] with Field
// "windows[i].maxAge" or "windows[i].score". The curve keeps a copy of windows.
func NewStepCurve(windows ...StepWindow) (DecayCurve, error) {
	if len(windows) == 0 {
		return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", "windows", 0, "at least one window is required")
	}
	for i, w := range windows {
		field := "windows[" + strconv.Itoa(i) + "]"
		switch {
		case w.MaxAge == 0:
			return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", field+".maxAge", w.MaxAge, "zero-width windows are forbidden (maxAge must be greater than zero)")
		case w.MaxAge < 0:
			return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", field+".maxAge", w.MaxAge, "maxAge must be greater than zero")
		case i > 0 && w.MaxAge <= windows[i-1].MaxAge:
			return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", field+".maxAge", w.MaxAge, "windows must be sorted youngest to oldest with strictly increasing maxAge (previous is "+windows[i-1].MaxAge.String()+")")
		case !(w.Score >= 0.0 && w.Score <= 1.0):
			return DecayCurve{}, enginehook.InvalidConfig("DecayCurve", field+".score", w.Score, "score must be in [0, 1]")
		}
	}
	return DecayCurve{kind: "step", windows: slices.Clone(windows)}, nil
}

// Type returns "exponential", "window" or "step", or "" for the zero value.
func (c DecayCurve) Type() string { return c.kind }

// HalfLife returns the half-life of an exponential curve, and 0 otherwise.
func (c DecayCurve) HalfLife() time.Duration {
	if c.kind == "exponential" {
		return c.d
	}
	return 0
}

// MaxAge returns the maxAge of a window curve, and 0 otherwise.
func (c DecayCurve) MaxAge() time.Duration {
	if c.kind == "window" {
		return c.d
	}
	return 0
}

// Windows returns a copy of the windows of a step curve, and nil otherwise.
func (c DecayCurve) Windows() []StepWindow { return slices.Clone(c.windows) }

// apply is APPLY-CURVE for a non-negative age.
func (c DecayCurve) apply(age time.Duration) float64 {
	switch c.kind {
	case "exponential":
		return math.Pow(2.0, -age.Seconds()/c.d.Seconds())
	case "window":
		if age < c.d {
			return 1.0
		}
		return 0.0
	case "step":
		for _, w := range c.windows {
			if w.MaxAge > age {
				return w.Score
			}
		}
		return c.windows[len(c.windows)-1].Score
	}
	return 0.0
}

// DecayOption configures a [Decay]; the options are built by the
// With... functions of this package.
type DecayOption func(*decayOptions)

// decayOptions holds what the options set, validated by NewDecay.
type decayOptions struct {
	nullScore float64
}

// WithNullTimestampScore sets the score of items without a timestamp
// (default 0.5, neutral). NewDecay rejects a value outside [0, 1].
func WithNullTimestampScore(v float64) DecayOption {
	return func(o *decayOptions) { o.nullScore = v }
}

// Decay is the spec's DecayScorer (chapter 23): it scores an item by its
// age, now - timestamp, against the reference time of an injected [Clock],
// through a [DecayCurve]: exponential half-life decay, a step function of age
// windows, or a binary window. It is an absolute scorer: allItems is never
// inspected.
//
// An item without a timestamp scores the null-timestamp score (default
// 0.5). A future-dated item's negative age is clamped to zero before the
// curve is applied, so it scores like an age-zero item. Ages are time.Time
// differences, so they saturate at about 292 years (time.Time.Sub).
//
// Score reads the clock once per call. The batch path the pipeline uses
// reads it once per scoring pass, so that every item of a pass is aged
// against the same instant; with a fixed clock both give the same scores.
//
// A nil item scores 0. The zero value (no clock) scores every item 0. A
// Decay is immutable and safe for concurrent use when its clock is.
type Decay struct {
	clock     Clock
	curve     DecayCurve
	nullScore float64
}

// NewDecay returns a Decay. clock is required (nil, or a nil
// ClockFunc or pointer, is rejected: Field "clock"; pass [SystemClock] for
// the real time) and curve must have been built by one of the curve
// constructors (the zero DecayCurve is rejected: Field "curve"). The
// null-timestamp score, 0.5 unless set with [WithNullTimestampScore], must
// be in [0, 1] (Field "nullTimestampScore"). Errors are [*cupel.ValidationError]s
// wrapping [cupel.ErrInvalidConfig].
func NewDecay(clock Clock, curve DecayCurve, opts ...DecayOption) (*Decay, error) {
	if enginehook.IsNil(clock) {
		return nil, enginehook.InvalidConfig("DecayScorer", "clock", nil, "a clock is required (use SystemClock() for the real time)")
	}
	if curve.kind == "" {
		return nil, enginehook.InvalidConfig("DecayScorer", "curve", "DecayCurve{}", "curve must be built by NewExponentialCurve, NewWindowCurve or NewStepCurve")
	}
	o := decayOptions{nullScore: 0.5}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if !(o.nullScore >= 0.0 && o.nullScore <= 1.0) {
		return nil, enginehook.InvalidConfig("DecayScorer", "nullTimestampScore", o.nullScore, "must be in [0, 1]")
	}
	return &Decay{clock: clock, curve: curve, nullScore: o.nullScore}, nil
}

// Clock returns the scorer's clock.
func (s *Decay) Clock() Clock { return s.clock }

// Curve returns the scorer's curve.
func (s *Decay) Curve() DecayCurve { return s.curve }

// NullTimestampScore returns the score of items without a timestamp.
func (s *Decay) NullTimestampScore() float64 { return s.nullScore }

// Score implements DECAY-SCORE of spec chapter 23 (DecayScorer).
func (s *Decay) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil || s.clock == nil {
		return 0.0
	}
	t, ok := item.Timestamp()
	if !ok {
		return s.nullScore
	}
	return s.scoreAt(t, s.clock.Now())
}

// scoreAt scores an item stamped t against now.
func (s *Decay) scoreAt(t, now time.Time) float64 {
	age := max(0, now.Sub(t))
	return s.curve.apply(age)
}
