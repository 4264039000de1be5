package scorer

import (
	"math"
	"slices"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// Weighted is one entry of a [Composite]: a child scorer and its
// relative weight.
type Weighted struct {
	// Scorer is the child scorer; it must not be nil.
	Scorer cupel.Scorer
	// Weight is the child's relative weight; it must be > 0 and finite.
	Weight float64
}

// Composite is the spec's CompositeScorer (chapter 20): it combines child
// scorers into their weighted average, the sum over the children, in entry order, of
// child.Score(item, allItems) * normalizedWeight, where the normalized
// weights are the raw weights divided by their sum. Weights are relative:
// (3, 1) and (0.75, 0.25) give the same scorer.
//
// A Composite captures its children when it is built. The
// Composite and Scaled children are captured as their immutable
// inner state, not as the pointers handed in, so that nothing done to those
// values afterwards (not even *child = *other) changes this scorer or can
// make its scorer graph cyclic. The graph of built-in composites is thus a
// DAG by construction: a scorer can only refer to scorers that existed
// before it. NewComposite still runs the spec's DETECT-CYCLES over that
// graph, as the spec requires; it cannot fail for the built-in scorers. A
// custom Scorer that wraps other scorers is opaque to the detection (as in
// the spec), so it is the caller's duty not to build a cycle through one.
// The same child may appear several times, in one composite or in nested
// ones: that is a DAG, not a cycle.
//
// A nil item scores 0 and no child is called. The zero value scores every
// item 0. A Composite is immutable; it is safe for concurrent use when
// its children are.
type Composite struct {
	c *composite
}

// composite is the immutable state of a Composite.
type composite struct {
	entries []Weighted     // as given, for Entries
	kids    []cupel.Scorer // the children, built-in composites resolved to their state
	weights []float64      // normalized
}

// NewComposite validates entries as the spec's CONSTRUCT-COMPOSITE
// does and returns the scorer. There must be at least one entry (Field
// "entries"); each scorer must be non-nil (also not a typed nil pointer, and
// not the zero value of Composite or Scaled; Field
// "entries[i].scorer") and each weight > 0 and finite (Field
// "entries[i].weight"). Beyond the spec, the sum of the weights must be
// finite (Field "entries"), since weights near the float64 maximum would
// overflow it and normalize every weight to 0. Errors are
// [*cupel.ValidationError]s wrapping [cupel.ErrInvalidConfig].
func NewComposite(entries ...Weighted) (*Composite, error) {
	if len(entries) == 0 {
		return nil, enginehook.InvalidConfig("CompositeScorer", "entries", len(entries), "at least one scorer entry is required")
	}
	c := &composite{
		entries: slices.Clone(entries),
		kids:    make([]cupel.Scorer, len(entries)),
		weights: make([]float64, len(entries)),
	}
	total := 0.0
	for i, e := range entries {
		field := "entries[" + strconv.Itoa(i) + "]"
		kid, err := resolveChild(e.Scorer, "CompositeScorer", field+".scorer")
		if err != nil {
			return nil, err
		}
		if e.Weight <= 0.0 {
			return nil, enginehook.InvalidConfig("CompositeScorer", field+".weight", e.Weight, "weight must be positive")
		}
		if math.IsNaN(e.Weight) || math.IsInf(e.Weight, 0) {
			return nil, enginehook.InvalidConfig("CompositeScorer", field+".weight", e.Weight, "weight must be finite")
		}
		c.kids[i] = kid
		total += e.Weight
	}
	if math.IsInf(total, 0) {
		return nil, enginehook.InvalidConfig("CompositeScorer", "entries", total, "sum of the weights must be finite")
	}
	for i, e := range entries {
		c.weights[i] = e.Weight / total
	}
	if err := detectCycles(c.kids); err != nil {
		return nil, err
	}
	return &Composite{c: c}, nil
}

// resolveChild checks a child scorer and returns what a composite or scaled
// scorer stores for it: the inner state of a Composite or
// Scaled, the scorer itself otherwise.
func resolveChild(s cupel.Scorer, typ, field string) (cupel.Scorer, error) {
	if enginehook.IsNil(s) {
		return nil, enginehook.InvalidConfig(typ, field, nil, "scorer must not be nil")
	}
	switch v := s.(type) {
	case *Composite:
		if v.c == nil {
			return nil, enginehook.InvalidConfig(typ, field, "scorer.Composite{}", "must be built with scorer.NewComposite")
		}
		return v.c, nil
	case *Scaled:
		if v.s == nil {
			return nil, enginehook.InvalidConfig(typ, field, "scorer.Scaled{}", "must be built with scorer.NewScaled")
		}
		return v.s, nil
	}
	return s, nil
}

// detectCycles is the spec's DETECT-CYCLES: a depth-first search through the
// composite and scaled nodes by reference identity, failing when a node is
// met again while it is on the current path. Nodes already explored are not
// explored again, so shared children cost O(V + E) in all.
func detectCycles(kids []cupel.Scorer) error {
	visited := make(map[cupel.Scorer]bool) // node -> still on the current path
	var dfs func(node cupel.Scorer) error
	dfs = func(node cupel.Scorer) error {
		var children []cupel.Scorer
		switch v := node.(type) {
		case *composite:
			children = v.kids
		case *scaled:
			children = []cupel.Scorer{v.inner}
		default:
			return nil // a leaf: only composite and scaled nodes have children
		}
		if inPath, ok := visited[node]; ok {
			if inPath {
				return enginehook.InvalidConfig("CompositeScorer", "entries", nil, "cycle detected: scorer appears in its own dependency graph")
			}
			return nil
		}
		visited[node] = true
		for _, k := range children {
			if err := dfs(k); err != nil {
				return err
			}
		}
		visited[node] = false
		return nil
	}
	for _, k := range kids {
		if err := dfs(k); err != nil {
			return err
		}
	}
	return nil
}

// Entries returns a copy of the entries as given, with their raw weights.
func (s *Composite) Entries() []Weighted {
	if s == nil || s.c == nil {
		return nil
	}
	return slices.Clone(s.c.entries)
}

// NormalizedWeights returns a copy of the normalized weights, in entry order;
// they sum to 1 up to rounding.
func (s *Composite) NormalizedWeights() []float64 {
	if s == nil || s.c == nil {
		return nil
	}
	return slices.Clone(s.c.weights)
}

// Score implements COMPOSITE-SCORE of spec chapter 20 (CompositeScorer),
// calling the children in entry order.
func (s *Composite) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if s == nil || s.c == nil {
		return 0.0
	}
	return s.c.Score(item, allItems)
}

// Score is COMPOSITE-SCORE. The explicit float64 conversion of each product
// forbids the compiler to fuse it with the addition (FMA), so that Score and
// the batch path, [Composite.ScoreAll], round identically on every
// architecture.
func (c *composite) Score(item *cupel.ContextItem, allItems []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	result := 0.0
	for i, k := range c.kids {
		result += float64(k.Score(item, allItems) * c.weights[i])
	}
	return result
}
