package policy

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// BuildOption configures [Spec.Build].
type BuildOption func(*buildOptions)

type buildOptions struct {
	clock scorer.Clock
	// check builds the spec only to validate it ([Decode]): a decay
	// scorer without a clock gets one that is never read.
	check bool
}

// WithClock supplies the clock of decay scorers that have no
// reference_time. Such a scorer cannot be built without one: the spec
// gives scorer.Decay no default clock.
func WithClock(c scorer.Clock) BuildOption { return func(o *buildOptions) { o.clock = c } }

// Build validates the spec and returns the cupel.Policy. An invalid spec
// is a [*cupel.ValidationError] wrapping cupel.ErrInvalidConfig whose Field
// is the path of the offending value, e.g. "scorers[1].weight".
func (s Spec) Build(opts ...BuildOption) (cupel.Policy, error) {
	var o buildOptions
	for _, opt := range opts {
		opt(&o)
	}
	return s.build(&o)
}

func (s Spec) build(o *buildOptions) (cupel.Policy, error) {
	var scorer cupel.Scorer
	var err error
	if len(s.Scorers) == 1 {
		// One entry is that scorer alone; its weight is not used.
		scorer, err = s.Scorers[0].build("scorers[0]", o)
	} else {
		scorer, err = buildComposite("", "scorers", s.Scorers, o)
	}
	if err != nil {
		return cupel.Policy{}, err
	}
	slicer, err := s.buildSlicer()
	if err != nil {
		return cupel.Policy{}, err
	}
	var pl cupel.Placer
	switch s.Placer {
	case "chronological":
		pl = placer.NewChronological()
	case "u-shaped":
		pl = placer.NewUShaped()
	default:
		return cupel.Policy{}, specError("placer", s.Placer, `must be "chronological" or "u-shaped"`)
	}
	p := cupel.Policy{Scorer: scorer, Slicer: slicer, Placer: pl}
	if s.Deduplication != nil {
		p.DisableDeduplication = !*s.Deduplication
	}
	if s.OverflowStrategy != "" {
		ov, err := cupel.ParseOverflowStrategy(s.OverflowStrategy)
		if err != nil {
			return cupel.Policy{}, specError("overflow_strategy", s.OverflowStrategy, `must be "throw", "truncate" or "proceed"`)
		}
		p.Overflow = ov
	}
	return p, nil
}

func specError(path string, value any, reason string) error {
	return enginehook.InvalidConfig("policy.Spec", path, value, reason)
}

// wrapSpecError re-roots a constructor's validation error at path.
func wrapSpecError(path string, err error) error {
	var ve *cupel.ValidationError
	if errors.As(err, &ve) {
		field := path
		if ve.Field != "" {
			field = join(path, ve.Field)
		}
		return enginehook.InvalidConfig("policy.Spec", field, ve.Value, ve.Reason)
	}
	return specError(path, nil, err.Error())
}

// join joins the path of a table and a key; the policy's own table has the
// empty path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// field is one of a spec's optional fields: its key, and whether it is set.
type field struct {
	name string
	set  bool
}

// onlyFields reports a field set for another scorer or slicer type: the
// first of set, which is in key order, that allowed does not name.
func onlyFields(path, typ string, set []field, allowed ...string) error {
	for _, f := range set {
		if f.set && !slices.Contains(allowed, f.name) {
			return specError(join(path, f.name), nil, "is not a field of type "+typ)
		}
	}
	return nil
}

// setFields are the scorer's optional fields, in key order (a test keeps
// them so): a fixed array, as a scorer is built once a policy.
func (s *ScorerSpec) setFields() [12]field {
	return [...]field{
		{"boost", s.Boost != 0},
		{"children", s.Children != nil},
		{"curve", s.Curve != nil},
		{"default_score", s.DefaultScore != nil},
		{"inner", s.Inner != nil},
		{"key", s.Key != ""},
		{"null_timestamp_score", s.NullTimestampScore != nil},
		{"reference_time", s.ReferenceTime != nil},
		{"tag_weights", s.TagWeights != nil},
		{"use_default_weights", s.UseDefaultWeights != nil},
		{"value", s.Value != ""},
		{"weights", s.Weights != nil},
	}
}

// buildComposite builds the composite of the children listed under key
// in the table at path, each of which needs a weight.
func buildComposite(path, key string, list []ScorerSpec, o *buildOptions) (cupel.Scorer, error) {
	entries := make([]scorer.Weighted, 0, len(list))
	for i := range list {
		p := fmt.Sprintf("%s[%d]", join(path, key), i)
		if list[i].Weight == nil {
			return nil, specError(p+".weight", nil, "is required for a composite's child")
		}
		child, err := list[i].build(p, o)
		if err != nil {
			return nil, err
		}
		entries = append(entries, scorer.Weighted{Scorer: child, Weight: float64(*list[i].Weight)})
	}
	sc, err := scorer.NewComposite(entries...)
	if err != nil {
		// The constructor's entries are the listed children:
		// entries[i].weight is key[i].weight.
		var ve *cupel.ValidationError
		if errors.As(err, &ve) && strings.HasPrefix(ve.Field, "entries") {
			return nil, enginehook.InvalidConfig("policy.Spec", join(path, key+strings.TrimPrefix(ve.Field, "entries")), ve.Value, ve.Reason)
		}
		return nil, wrapSpecError(join(path, key), err)
	}
	return sc, nil
}

func (s *ScorerSpec) build(path string, o *buildOptions) (cupel.Scorer, error) {
	set := s.setFields()
	check := func(allowed ...string) error { return onlyFields(path, s.Type, set[:], allowed...) }
	switch s.Type {
	case "recency", "priority", "frequency", "reflexive":
		if err := check(); err != nil {
			return nil, err
		}
		switch s.Type {
		case "recency":
			return scorer.NewRecency(), nil
		case "priority":
			return scorer.NewPriority(), nil
		case "frequency":
			return scorer.NewFrequency(), nil
		}
		return scorer.NewReflexive(), nil
	case "kind":
		return s.buildKind(path, check)
	case "tag":
		if err := check("tag_weights"); err != nil {
			return nil, err
		}
		w := make(map[string]float64, len(s.TagWeights))
		for i, tw := range s.TagWeights {
			if _, dup := w[tw.Tag]; dup {
				return nil, specError(fmt.Sprintf("%s.tag_weights[%d].tag", path, i), tw.Tag, "repeats a tag")
			}
			w[tw.Tag] = float64(tw.Weight)
		}
		sc, err := scorer.NewTag(w)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "composite":
		if err := check("children"); err != nil {
			return nil, err
		}
		return buildComposite(path, "children", s.Children, o)
	case "scaled":
		if err := check("inner"); err != nil {
			return nil, err
		}
		inner, ipath := s.Inner, join(path, "inner")
		if inner == nil {
			return nil, specError(ipath, nil, "is required for a scaled scorer")
		}
		if inner.Weight != nil {
			return nil, specError(ipath+".weight", float64(*inner.Weight), "only a composite's children have a weight")
		}
		in, err := inner.build(ipath, o)
		if err != nil {
			return nil, err
		}
		return scorer.NewScaled(in)
	case "decay":
		return s.buildDecay(path, o, check)
	case "metadata_trust":
		if err := check("default_score"); err != nil {
			return nil, err
		}
		def := 0.5
		if s.DefaultScore != nil {
			def = float64(*s.DefaultScore)
		}
		sc, err := scorer.NewMetadataTrust(def)
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	case "metadata_key":
		if err := check("key", "value", "boost"); err != nil {
			return nil, err
		}
		sc, err := scorer.NewMetadataKey(s.Key, s.Value, float64(s.Boost))
		if err != nil {
			return nil, wrapSpecError(path, err)
		}
		return sc, nil
	}
	return nil, specError(join(path, "type"), s.Type, "must be one of "+strings.Join(scorerTypes, ", "))
}

func (s *ScorerSpec) buildKind(path string, check func(...string) error) (cupel.Scorer, error) {
	if err := check("use_default_weights", "weights"); err != nil {
		return nil, err
	}
	useDefault := s.UseDefaultWeights == nil || *s.UseDefaultWeights
	if s.UseDefaultWeights != nil && *s.UseDefaultWeights && s.Weights != nil {
		return nil, specError(join(path, "weights"), len(s.Weights), "must be absent with use_default_weights = true")
	}
	if s.Weights == nil && useDefault {
		return scorer.NewDefaultKind(), nil
	}
	w := make(map[cupel.ContextKind]float64, len(s.Weights))
	for i, kw := range s.Weights {
		p := fmt.Sprintf("%s.weights[%d]", path, i)
		if strings.TrimSpace(string(kw.Kind)) == "" {
			return nil, specError(p+".kind", string(kw.Kind), "must not be empty")
		}
		for k := range w {
			if k.Equal(kw.Kind) {
				return nil, specError(p+".kind", string(kw.Kind), "repeats kind "+string(k))
			}
		}
		w[kw.Kind] = float64(kw.Weight)
	}
	sc, err := scorer.NewKind(w)
	if err != nil {
		return nil, wrapSpecError(path, err)
	}
	return sc, nil
}

func (s *ScorerSpec) buildDecay(path string, o *buildOptions, check func(...string) error) (cupel.Scorer, error) {
	if err := check("reference_time", "curve", "null_timestamp_score"); err != nil {
		return nil, err
	}
	if s.Curve == nil {
		return nil, specError(join(path, "curve"), nil, "is required for a decay scorer")
	}
	curve, err := s.Curve.build(join(path, "curve"))
	if err != nil {
		return nil, err
	}
	clock := o.clock
	if s.ReferenceTime != nil {
		now := *s.ReferenceTime
		clock = scorer.ClockFunc(func() time.Time { return now })
	}
	if clock == nil && o.check {
		clock = scorer.ClockFunc(func() time.Time { return time.Time{} })
	}
	if clock == nil {
		return nil, specError(path, "decay", "needs a clock: give it a reference_time, or build the policy with policy.WithClock")
	}
	var dopts []scorer.DecayOption
	if s.NullTimestampScore != nil {
		dopts = append(dopts, scorer.WithNullTimestampScore(float64(*s.NullTimestampScore)))
	}
	sc, err := scorer.NewDecay(clock, curve, dopts...)
	if err != nil {
		return nil, wrapSpecError(path, err)
	}
	return sc, nil
}

// seconds converts an age in seconds to a duration, rounding to the
// nanosecond.
func seconds(path string, f Float) (time.Duration, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > float64(math.MaxInt64)/1e9 {
		return 0, specError(path, v, "is not a representable duration in seconds")
	}
	return time.Duration(math.Round(v * 1e9)), nil
}

// secondsOf is the age d in seconds.
func secondsOf(d time.Duration) *Float { f := Float(float64(d) / 1e9); return &f }

func (c *CurveSpec) build(path string) (scorer.DecayCurve, error) {
	age := func(key string, f *Float) (time.Duration, error) {
		if f == nil {
			return 0, specError(join(path, key), nil, "is required for a curve of type "+c.Type)
		}
		return seconds(join(path, key), *f)
	}
	var curve scorer.DecayCurve
	var err error
	switch c.Type {
	case "exponential":
		if c.MaxAgeSecs != nil || c.Windows != nil {
			return scorer.DecayCurve{}, specError(path, c.Type, "an exponential curve takes only half_life_secs")
		}
		var d time.Duration
		if d, err = age("half_life_secs", c.HalfLifeSecs); err != nil {
			return scorer.DecayCurve{}, err
		}
		curve, err = scorer.NewExponentialCurve(d)
	case "window":
		if c.HalfLifeSecs != nil || c.Windows != nil {
			return scorer.DecayCurve{}, specError(path, c.Type, "a window curve takes only max_age_secs")
		}
		var d time.Duration
		if d, err = age("max_age_secs", c.MaxAgeSecs); err != nil {
			return scorer.DecayCurve{}, err
		}
		curve, err = scorer.NewWindowCurve(d)
	case "step":
		if c.HalfLifeSecs != nil || c.MaxAgeSecs != nil {
			return scorer.DecayCurve{}, specError(path, c.Type, "a step curve takes only windows")
		}
		ws := make([]scorer.StepWindow, len(c.Windows))
		for i, w := range c.Windows {
			d, err := seconds(fmt.Sprintf("%s.windows[%d].max_age_secs", path, i), w.MaxAgeSecs)
			if err != nil {
				return scorer.DecayCurve{}, err
			}
			ws[i] = scorer.StepWindow{MaxAge: d, Score: float64(w.Score)}
		}
		curve, err = scorer.NewStepCurve(ws...)
	default:
		return scorer.DecayCurve{}, specError(join(path, "type"), c.Type, `must be "exponential", "window" or "step"`)
	}
	if err != nil {
		return scorer.DecayCurve{}, wrapSpecError(path, err)
	}
	return curve, nil
}
