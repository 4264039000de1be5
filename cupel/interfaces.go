package cupel

// Scorer computes an item's relevance score (spec chapter 13 (Scorers)).
//
// item is the item being scored and all is the complete list of scoreable
// items, item included; relative scorers compare item with its peers. A
// scorer must be a pure function of its arguments: the pipeline may call it
// from several goroutines at once and must get the same result for the same
// input. Implementations must not modify all.
type Scorer interface {
	Score(item *ContextItem, all []*ContextItem) float64
}

// Slicer selects the items that fit a budget (spec chapter 25 (Slicers)).
//
// sorted is in score-descending order (as the Sort stage produces it) and
// budget is the effective budget, with only maxTokens and targetTokens set.
// The result must be a subset of the input items (the same pointers), in a
// deterministic order. Implementations must not modify sorted. A slicer
// returns an error only for conditions its configuration makes fatal (a
// knapsack table over its limit, a count requirement under ScarcityThrow).
type Slicer interface {
	Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error)
}

// Placer orders the final selection (spec chapter 31 (Placers)).
//
// items is the merged list: pinned items with score 1.0 followed by the
// sliced items with their scores. The result must hold exactly the same items
// in a deterministic order. Implementations must not modify items.
type Placer interface {
	Place(items []ScoredItem) []*ContextItem
}

// DetailedSlicer is implemented by slicers that report more than a selection:
// the count-quota slicers report the items they dropped for a reached cap and
// the count requirements they could not meet. The pipeline uses it to explain
// those decisions in the SelectionReport (rulings 4 and 8).
//
// The details are returned from the call rather than kept on the slicer, so
// that one slicer can serve concurrent pipeline runs.
type DetailedSlicer interface {
	Slicer
	SliceDetailed(sorted []ScoredItem, budget ContextBudget) (SliceResult, error)
}

// SliceResult is what a [DetailedSlicer] returns.
type SliceResult struct {
	// Selected is what Slice would return.
	Selected []*ContextItem
	// CapExcluded lists the items dropped because their kind reached its
	// capCount, in the order they were dropped.
	CapExcluded []CapExclusion
	// Shortfalls lists the count requirements that could not be met under
	// ScarcityDegrade, in entry order.
	Shortfalls []CountRequirementShortfall
}

// CapExclusion records an item a count-quota slicer dropped because its kind
// had reached its capCount (ruling 4).
type CapExclusion struct {
	Item *ContextItem
	// Kind is the kind as spelled in the quota entry.
	Kind ContextKind
	// Cap is the entry's capCount.
	Cap int
	// Count is the number of items of that kind already selected.
	Count int
}

// CountRequirementShortfall records a count requirement that could not be
// met under ScarcityDegrade (spec chapter 29 (CountQuotaSlice)).
type CountRequirementShortfall struct {
	// Kind is the kind as spelled in the quota entry.
	Kind           ContextKind `json:"kind"`
	RequiredCount  int         `json:"required_count"`
	SatisfiedCount int         `json:"satisfied_count"`
}

// ScarcityBehavior says what a count-quota slicer does when a kind has fewer
// candidates than its requireCount. The zero value is ScarcityDegrade, the
// spec's default.
type ScarcityBehavior int

// The scarcity behaviours.
const (
	// ScarcityDegrade includes what there is and records a shortfall.
	ScarcityDegrade ScarcityBehavior = iota
	// ScarcityThrow fails the slice with an error wrapping ErrCountRequirementUnmet.
	ScarcityThrow
)

// String returns "Degrade" or "Throw".
func (s ScarcityBehavior) String() string {
	switch s {
	case ScarcityDegrade:
		return "Degrade"
	case ScarcityThrow:
		return "Throw"
	}
	return "ScarcityBehavior(" + itoa(int(s)) + ")"
}

// ParseScarcityBehavior parses "degrade" or "throw" (ASCII case insensitive).
func ParseScarcityBehavior(s string) (ScarcityBehavior, error) {
	switch asciiLower(s) {
	case "degrade":
		return ScarcityDegrade, nil
	case "throw":
		return ScarcityThrow, nil
	}
	return 0, invalidConfig("ScarcityBehavior", "value", s, `must be "degrade" or "throw"`)
}
