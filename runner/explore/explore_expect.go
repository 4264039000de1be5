package explore

import (
	"math"
	"slices"
	"strconv"

	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// exploreEpsilon is the score tolerance of generated cases: the format's
// default.
const exploreEpsilon = casefile.DefaultEpsilon

// exploreExpect makes the oracle's result r the expectations of c, in the
// form the vector writer can state and the loader reads back: scores and
// pipeline outputs name items by index, slicing and placing by content.
// Diagnostics are expected only when both sides declare the feature. It
// returns false when r cannot be an expectation.
func exploreExpect(c *casefile.Case, r protocol.Result, diagnostics bool) bool {
	c.Expect = casefile.Expect{Epsilon: exploreEpsilon}
	switch r.Kind {
	case protocol.ResultRejected:
		if r.Error == nil || !slices.Contains(casefile.ErrorKinds, r.Error.Kind) {
			return false
		}
		if c.Stage == casefile.StageScoring {
			// A scoring vector can state a construction error only.
			c.Expect.ConstructionError = r.Error.Kind == casefile.KindInvalidConfig
			return c.Expect.ConstructionError
		}
		c.Expect.Error = r.Error.Kind
		return true
	case protocol.ResultOK:
	default:
		return false
	}
	out := r.Output
	if out == nil {
		out = &protocol.Output{}
	}
	items := c.Input.Items
	n := len(items)
	refs := &indexRefs{items: items}
	valid := func(i int) bool { return i >= 0 && i < n }
	switch c.Stage {
	case casefile.StageScoring:
		c.Expect.Scores = make([]casefile.ExpectedScore, 0, len(out.Scores))
		for _, s := range out.Scores {
			if !valid(s.Index) {
				return false
			}
			c.Expect.Scores = append(c.Expect.Scores, casefile.ExpectedScore{Ref: refs.ref(s.Index), Score: s.Score})
		}
	case casefile.StageSlicing:
		c.Expect.Selected = make([]casefile.Ref, 0, len(out.Selected))
		for _, i := range out.Selected {
			if !valid(i) {
				return false
			}
			c.Expect.Selected = append(c.Expect.Selected, casefile.Ref{Content: items[i].Content, Resolved: i})
		}
		if out.CapExcludedCount != nil {
			v := *out.CapExcludedCount
			c.Expect.CapExcludedCount = &v
			expectShortfalls(c, out.Shortfalls)
		}
	case casefile.StagePlacing:
		c.Expect.Ordered = make([]casefile.Ref, 0, len(out.Ordered))
		for _, i := range out.Ordered {
			if !valid(i) {
				return false
			}
			c.Expect.Ordered = append(c.Expect.Ordered, casefile.Ref{Content: items[i].Content, Resolved: i})
		}
	case casefile.StagePipeline:
		c.Expect.Ordered = make([]casefile.Ref, 0, len(out.Ordered))
		for _, i := range out.Ordered {
			if !valid(i) {
				return false
			}
			c.Expect.Ordered = append(c.Expect.Ordered, refs.ref(i))
		}
		if out.Overflow != nil {
			v := *out.Overflow
			c.Expect.Overflow = &v
		}
		if s := c.Input.Slicer; s == "count_quota" || s == "count_constrained_knapsack" {
			sf := out.Shortfalls
			if sf == nil && out.Diagnostics != nil {
				sf = out.Diagnostics.Shortfalls
			}
			expectShortfalls(c, sf)
		}
		if diagnostics && out.Diagnostics != nil {
			d, ok := expectDiagnostics(refs, out.Diagnostics)
			if !ok {
				return false
			}
			c.Expect.Diagnostics = d
		}
	}
	return true
}

// indexRefs makes the references by index to a case's items.
type indexRefs struct {
	items []casefile.Item
	// index[i] is i: what the references' Index point to, made once a
	// case rather than once a reference.
	index []int
}

func (r *indexRefs) ref(i int) casefile.Ref {
	if r.index == nil {
		r.index = make([]int, len(r.items))
		for j := range r.index {
			r.index[j] = j
		}
	}
	return casefile.Ref{Content: r.items[i].Content, Index: &r.index[i], Resolved: i}
}

// expectShortfalls expects sf in full, or a count of zero when it is
// empty (the format cannot state an empty list).
func expectShortfalls(c *casefile.Case, sf []casefile.Shortfall) {
	if len(sf) == 0 {
		zero := 0
		c.Expect.ShortfallCount = &zero
		return
	}
	c.Expect.Shortfalls = slices.Clone(sf)
}

// exploreReasonInts and exploreReasonStrings are the reason fields the
// vector format states (vectors/README.md, Diagnostics), by type;
// exploreReasonFloats are compared as floats.
var (
	exploreReasonInts    = []string{"item_tokens", "available_tokens", "tokens", "cap", "count", "actual"}
	exploreReasonStrings = []string{"deduplicated_against", "displaced_by", "kind", "displaced_by_kind", "filter_name"}
	exploreReasonFloats  = []string{"score", "threshold"}
)

func expectDiagnostics(refs *indexRefs, d *protocol.Diagnostics) (*casefile.ExpectedDiagnostics, bool) {
	totals := &[2]int64{d.TotalCandidates, d.TotalTokensConsidered}
	out := &casefile.ExpectedDiagnostics{TotalCandidates: &totals[0], TotalTokensConsidered: &totals[1]}
	// One allocation each for the entries of both lists and for the
	// values their Score fields point to.
	entries := make([]casefile.ExpectedDiagnosticItem, 0, len(d.Included)+len(d.Excluded))
	scores := make([]casefile.Float, 0, len(d.Included)+len(d.Excluded))
	conv := func(list []protocol.DiagnosticItem) ([]casefile.ExpectedDiagnosticItem, bool) {
		start := len(entries)
		for _, e := range list {
			if e.Index < 0 || e.Index >= len(refs.items) {
				return nil, false
			}
			name, _ := e.Reason["reason"].(string)
			scores = append(scores, e.Score)
			er := casefile.ExpectedDiagnosticItem{Ref: refs.ref(e.Index), Score: &scores[len(scores)-1], Reason: name}
			for k, v := range e.Reason {
				var fv any
				switch {
				case slices.Contains(exploreReasonInts, k):
					f, ok := reasonNumber(v)
					if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
						return nil, false
					}
					fv = int64(f)
					if _, same := v.(int64); same {
						fv = v // the same value, without boxing it again
					}
				case slices.Contains(exploreReasonStrings, k):
					if _, ok := v.(string); !ok {
						return nil, false
					}
					fv = v
				case slices.Contains(exploreReasonFloats, k):
					f, ok := reasonNumber(v)
					if !ok {
						return nil, false
					}
					fv = f
				default:
					continue // not a field the format states
				}
				if er.Fields == nil {
					er.Fields = make(map[string]any, len(e.Reason)-1)
				}
				er.Fields[k] = fv
			}
			entries = append(entries, er)
		}
		return entries[start:len(entries):len(entries)], true
	}
	var ok bool
	if out.Included, ok = conv(d.Included); !ok {
		return nil, false
	}
	if out.Excluded, ok = conv(d.Excluded); !ok {
		return nil, false
	}
	// The format cannot state an empty list (an absent one is not
	// compared): expect none rather than an empty one.
	if len(out.Included) == 0 {
		out.Included = nil
	}
	if len(out.Excluded) == 0 {
		out.Excluded = nil
	}
	return out, true
}

// reasonNumber is the number of a reason field as either side hands it
// over: go-cupel in process gives int64 and Float, a protocol answer
// float64, with a non-finite float as its string form ("NaN").
func reasonNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case casefile.Float:
		return float64(n), true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case string:
		var f casefile.Float
		if err := f.UnmarshalJSON([]byte(strconv.Quote(n))); err == nil {
			return float64(f), true
		}
	}
	return 0, false
}
