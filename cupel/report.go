package cupel

import (
	"encoding/json"
	"maps"
	"strconv"
)

// PipelineStage names an observable pipeline stage (spec chapter "Events").
// Sort has no stage of its own. Unknown stages read from another
// implementation's report keep their name (CLARIFICATIONS 9).
type PipelineStage string

// The observable stages.
const (
	StageClassify    PipelineStage = "Classify"
	StageScore       PipelineStage = "Score"
	StageDeduplicate PipelineStage = "Deduplicate"
	StageSlice       PipelineStage = "Slice"
	StagePlace       PipelineStage = "Place"
)

// InclusionReason says why an item was included (spec chapter "Exclusion
// Reasons"). Unknown reasons decode with their name kept.
type InclusionReason string

// The inclusion reasons (CLARIFICATIONS 1).
const (
	// InclusionScored: included for its score, within budget.
	InclusionScored InclusionReason = "Scored"
	// InclusionPinned: pinned; reported with score 1.0.
	InclusionPinned InclusionReason = "Pinned"
	// InclusionZeroToken: a non-pinned item with zero tokens; keeps its score.
	InclusionZeroToken InclusionReason = "ZeroToken"
)

// ExclusionVariant names the variant of an [ExclusionReason].
type ExclusionVariant string

// The exclusion variants: the spec's eight (four of them reserved, never
// emitted by the built-in stages) and CountCapExceeded (CLARIFICATIONS 4).
const (
	ExclusionBudgetExceeded        ExclusionVariant = "BudgetExceeded"
	ExclusionScoredTooLow          ExclusionVariant = "ScoredTooLow" // reserved
	ExclusionDeduplicated          ExclusionVariant = "Deduplicated"
	ExclusionQuotaCapExceeded      ExclusionVariant = "QuotaCapExceeded"      // reserved
	ExclusionQuotaRequireDisplaced ExclusionVariant = "QuotaRequireDisplaced" // reserved
	ExclusionNegativeTokens        ExclusionVariant = "NegativeTokens"
	ExclusionPinnedOverride        ExclusionVariant = "PinnedOverride"
	ExclusionFiltered              ExclusionVariant = "Filtered" // reserved
	ExclusionCountCapExceeded      ExclusionVariant = "CountCapExceeded"
)

// ExclusionReason says why an item was excluded. It is a data-carrying
// variant (spec chapter "Exclusion Reasons"): Variant names it and only the
// fields of that variant are meaningful (the others are zero and are not
// encoded). Build reasons with the constructors (BudgetExceeded,
// Deduplicated, ...) and match them by Variant.
type ExclusionReason struct {
	Variant ExclusionVariant

	ItemTokens      int     // BudgetExceeded
	AvailableTokens int     // BudgetExceeded
	Score           float64 // ScoredTooLow
	Threshold       float64 // ScoredTooLow
	// DeduplicatedAgainst is the content of the item kept (Deduplicated).
	DeduplicatedAgainst string
	Kind                ContextKind // QuotaCapExceeded, CountCapExceeded
	Cap                 int         // QuotaCapExceeded, CountCapExceeded
	Actual              int         // QuotaCapExceeded
	Count               int         // CountCapExceeded
	DisplacedByKind     ContextKind // QuotaRequireDisplaced
	Tokens              int         // NegativeTokens
	// DisplacedBy is the content of the first pinned item (PinnedOverride).
	DisplacedBy string
	FilterName  string // Filtered

	// Fields holds the raw fields of a variant this package does not know,
	// as read from JSON (CLARIFICATIONS 9); nil for known variants.
	Fields map[string]json.RawMessage
}

// BudgetExceeded is the reason of an item that did not fit the budget.
func BudgetExceeded(itemTokens, availableTokens int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionBudgetExceeded, ItemTokens: itemTokens, AvailableTokens: availableTokens}
}

// ScoredTooLow is a reserved reason: the item scored below a threshold.
func ScoredTooLow(score, threshold float64) ExclusionReason {
	return ExclusionReason{Variant: ExclusionScoredTooLow, Score: score, Threshold: threshold}
}

// Deduplicated is the reason of a duplicate; against is the kept item's content.
func Deduplicated(against string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionDeduplicated, DeduplicatedAgainst: against}
}

// QuotaCapExceeded is a reserved reason: the kind exceeded its quota cap.
func QuotaCapExceeded(kind ContextKind, cap, actual int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionQuotaCapExceeded, Kind: kind, Cap: cap, Actual: actual}
}

// QuotaRequireDisplaced is a reserved reason: displaced for another kind's requirement.
func QuotaRequireDisplaced(byKind ContextKind) ExclusionReason {
	return ExclusionReason{Variant: ExclusionQuotaRequireDisplaced, DisplacedByKind: byKind}
}

// NegativeTokens is the reason of an item with a negative token count.
func NegativeTokens(tokens int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionNegativeTokens, Tokens: tokens}
}

// PinnedOverride is the reason of an item that would have fitted but for the
// pinned items; displacedBy is the first pinned item's content (CLARIFICATIONS 2).
func PinnedOverride(displacedBy string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionPinnedOverride, DisplacedBy: displacedBy}
}

// Filtered is a reserved reason: excluded by a named filter.
func Filtered(filterName string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionFiltered, FilterName: filterName}
}

// CountCapExceeded is the reason of an item a count-quota slicer dropped
// because its kind had reached capCount (CLARIFICATIONS 4).
func CountCapExceeded(kind ContextKind, cap, count int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionCountCapExceeded, Kind: kind, Cap: cap, Count: count}
}

// Equal reports whether r and o are the same variant with the same fields.
func (r ExclusionReason) Equal(o ExclusionReason) bool {
	if !maps.EqualFunc(r.Fields, o.Fields, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
		return false
	}
	r.Fields, o.Fields = nil, nil
	return r.Variant == o.Variant && r.ItemTokens == o.ItemTokens && r.AvailableTokens == o.AvailableTokens &&
		sameFloat(r.Score, o.Score) && sameFloat(r.Threshold, o.Threshold) &&
		r.DeduplicatedAgainst == o.DeduplicatedAgainst && r.Kind == o.Kind && r.Cap == o.Cap &&
		r.Actual == o.Actual && r.Count == o.Count && r.DisplacedByKind == o.DisplacedByKind &&
		r.Tokens == o.Tokens && r.DisplacedBy == o.DisplacedBy && r.FilterName == o.FilterName
}

func sameFloat(a, b float64) bool { return a == b || (a != a && b != b) }

// String renders the reason as a short message, e.g.
// "BudgetExceeded: 2048 tokens requested, 512 available".
func (r ExclusionReason) String() string {
	switch r.Variant {
	case ExclusionBudgetExceeded:
		return "BudgetExceeded: " + itoa(r.ItemTokens) + " tokens requested, " + itoa(r.AvailableTokens) + " available"
	case ExclusionScoredTooLow:
		return "ScoredTooLow: score " + ftoa(r.Score) + " below threshold " + ftoa(r.Threshold)
	case ExclusionDeduplicated:
		return "Deduplicated: duplicate of " + strconv.Quote(r.DeduplicatedAgainst)
	case ExclusionQuotaCapExceeded:
		return "QuotaCapExceeded: kind " + string(r.Kind) + " at " + itoa(r.Actual) + " over cap " + itoa(r.Cap)
	case ExclusionQuotaRequireDisplaced:
		return "QuotaRequireDisplaced: displaced by kind " + string(r.DisplacedByKind)
	case ExclusionNegativeTokens:
		return "NegativeTokens: " + itoa(r.Tokens) + " tokens"
	case ExclusionPinnedOverride:
		return "PinnedOverride: displaced by pinned item " + strconv.Quote(r.DisplacedBy)
	case ExclusionFiltered:
		return "Filtered: by " + r.FilterName
	case ExclusionCountCapExceeded:
		return "CountCapExceeded: kind " + string(r.Kind) + " already has " + itoa(r.Count) + " of cap " + itoa(r.Cap)
	}
	return string(r.Variant)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// IncludedItem is an item of the context window with its score and the
// reason it was included (spec chapter "SelectionReport").
type IncludedItem struct {
	Item   *ContextItem
	Score  float64
	Reason InclusionReason
}

// ExcludedItem is an item left out, with its score at the time of the
// decision (0.0 for items excluded before scoring) and the reason.
type ExcludedItem struct {
	Item   *ContextItem
	Score  float64
	Reason ExclusionReason
}

// SelectionReport is the complete explanation of one pipeline run (spec
// chapter "SelectionReport"; CLARIFICATIONS 1 to 9).
//
// Included is in final placed order. Excluded is in score-descending order,
// ties in insertion order (Classify exclusions, then Deduplicate losers, then
// Slice exclusions, then Truncate drops), with NaN after every number.
// TotalCandidates is the number of input items and TotalTokensConsidered the
// sum of all their tokens, negative ones included.
type SelectionReport struct {
	Events                     []TraceEvent
	Included                   []IncludedItem
	Excluded                   []ExcludedItem
	TotalCandidates            int
	TotalTokensConsidered      int
	CountRequirementShortfalls []CountRequirementShortfall
}
