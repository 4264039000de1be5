package cupel

import (
	"math"
	"strconv"
	"strings"

	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// PipelineStage names an observable pipeline stage (spec chapter 36 (Events)).
// Sort has no stage of its own. Unknown stages read from another
// implementation's report keep their name (ruling 9).
type PipelineStage string

// The observable stages.
const (
	StageClassify    PipelineStage = "Classify"
	StageScore       PipelineStage = "Score"
	StageDeduplicate PipelineStage = "Deduplicate"
	StageSlice       PipelineStage = "Slice"
	StagePlace       PipelineStage = "Place"
)

// InclusionReason says why an item was included (spec chapter 37
// (Exclusion Reasons)). Unknown reasons decode with their name kept.
type InclusionReason string

// The inclusion reasons (ruling 1).
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
// emitted by the built-in stages) and CountCapExceeded (ruling 4).
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
// variant (spec chapter 37 (Exclusion Reasons)): Variant names it, and the
// accessor methods named after the spec's fields (ItemTokens,
// AvailableTokens, DeduplicatedAgainst, ...) return that variant's data; an
// accessor of another variant's field returns the zero value. Build reasons
// with the constructors (BudgetExceeded, Deduplicated, ...) and match them by
// Variant. Reasons are comparable with ==.
//
// The representation is compact (two integers and a string) because a report
// at item detail holds one reason per excluded item.
type ExclusionReason struct {
	Variant ExclusionVariant
	// a and b are the variant's integer fields, or for ScoredTooLow the bits
	// of its two float64s: int64 so that those fit on 32-bit platforms too.
	a, b int64
	// s is the variant's string field, or for an unknown variant the JSON
	// object of its other fields.
	s string
}

// BudgetExceeded is the reason of an item that did not fit the budget.
func BudgetExceeded(itemTokens, availableTokens int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionBudgetExceeded, a: int64(itemTokens), b: int64(availableTokens)}
}

// ScoredTooLow is a reserved reason: the item scored below a threshold.
func ScoredTooLow(score, threshold float64) ExclusionReason {
	return ExclusionReason{Variant: ExclusionScoredTooLow, a: int64(math.Float64bits(score)), b: int64(math.Float64bits(threshold))}
}

// Deduplicated is the reason of a duplicate; against is the kept item's content.
func Deduplicated(against string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionDeduplicated, s: against}
}

// QuotaCapExceeded is a reserved reason: the kind exceeded its quota cap.
func QuotaCapExceeded(kind ContextKind, cap, actual int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionQuotaCapExceeded, s: string(kind), a: int64(cap), b: int64(actual)}
}

// QuotaRequireDisplaced is a reserved reason: displaced for another kind's requirement.
func QuotaRequireDisplaced(byKind ContextKind) ExclusionReason {
	return ExclusionReason{Variant: ExclusionQuotaRequireDisplaced, s: string(byKind)}
}

// NegativeTokens is the reason of an item with a negative token count.
func NegativeTokens(tokens int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionNegativeTokens, a: int64(tokens)}
}

// PinnedOverride is the reason of an item that would have fitted but for the
// pinned items; displacedBy is the first pinned item's content (ruling 2).
func PinnedOverride(displacedBy string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionPinnedOverride, s: displacedBy}
}

// Filtered is a reserved reason: excluded by a named filter.
func Filtered(filterName string) ExclusionReason {
	return ExclusionReason{Variant: ExclusionFiltered, s: filterName}
}

// CountCapExceeded is the reason of an item a count-quota slicer dropped
// because its kind had reached capCount (ruling 4).
func CountCapExceeded(kind ContextKind, cap, count int) ExclusionReason {
	return ExclusionReason{Variant: ExclusionCountCapExceeded, s: string(kind), a: int64(cap), b: int64(count)}
}

// UnknownExclusion builds a reason of a variant this package does not know,
// with fieldsJSON the JSON object of its fields (or ""), as read from another
// implementation's report (ruling 9).
func UnknownExclusion(variant ExclusionVariant, fieldsJSON string) ExclusionReason {
	return ExclusionReason{Variant: variant, s: fieldsJSON}
}

func (r ExclusionReason) is(v ExclusionVariant) bool { return r.Variant == v }

// ItemTokens is BudgetExceeded's item_tokens.
func (r ExclusionReason) ItemTokens() int { return r.intIf(ExclusionBudgetExceeded, r.a) }

// AvailableTokens is BudgetExceeded's available_tokens.
func (r ExclusionReason) AvailableTokens() int { return r.intIf(ExclusionBudgetExceeded, r.b) }

// Score is ScoredTooLow's score.
func (r ExclusionReason) Score() float64 {
	if !r.is(ExclusionScoredTooLow) {
		return 0
	}
	return math.Float64frombits(uint64(r.a))
}

// Threshold is ScoredTooLow's threshold.
func (r ExclusionReason) Threshold() float64 {
	if !r.is(ExclusionScoredTooLow) {
		return 0
	}
	return math.Float64frombits(uint64(r.b))
}

// DeduplicatedAgainst is Deduplicated's deduplicated_against: the content of
// the item kept.
func (r ExclusionReason) DeduplicatedAgainst() string { return r.strIf(ExclusionDeduplicated) }

// Kind is the kind of QuotaCapExceeded and CountCapExceeded (as spelled in
// the quota entry).
func (r ExclusionReason) Kind() ContextKind {
	if r.is(ExclusionQuotaCapExceeded) || r.is(ExclusionCountCapExceeded) {
		return ContextKind(r.s)
	}
	return ""
}

// Cap is the cap of QuotaCapExceeded and CountCapExceeded.
func (r ExclusionReason) Cap() int {
	if r.is(ExclusionQuotaCapExceeded) || r.is(ExclusionCountCapExceeded) {
		return int(r.a)
	}
	return 0
}

// Actual is QuotaCapExceeded's actual.
func (r ExclusionReason) Actual() int { return r.intIf(ExclusionQuotaCapExceeded, r.b) }

// Count is CountCapExceeded's count: items of the kind already selected.
func (r ExclusionReason) Count() int { return r.intIf(ExclusionCountCapExceeded, r.b) }

// DisplacedByKind is QuotaRequireDisplaced's displaced_by_kind.
func (r ExclusionReason) DisplacedByKind() ContextKind {
	return ContextKind(r.strIf(ExclusionQuotaRequireDisplaced))
}

// Tokens is NegativeTokens's tokens.
func (r ExclusionReason) Tokens() int { return r.intIf(ExclusionNegativeTokens, r.a) }

// DisplacedBy is PinnedOverride's displaced_by: the first pinned item's content.
func (r ExclusionReason) DisplacedBy() string { return r.strIf(ExclusionPinnedOverride) }

// FilterName is Filtered's filter_name.
func (r ExclusionReason) FilterName() string { return r.strIf(ExclusionFiltered) }

// Known reports whether r is one of the variants this package defines.
func (r ExclusionReason) Known() bool { _, ok := exclusionFields[r.Variant]; return ok }

// UnknownFields returns, for a variant this package does not know, the JSON
// object of its fields as read (ruling 9); "" otherwise.
func (r ExclusionReason) UnknownFields() string {
	if r.Known() {
		return ""
	}
	return r.s
}

func (r ExclusionReason) intIf(v ExclusionVariant, x int64) int {
	if r.Variant == v {
		return int(x)
	}
	return 0
}

func (r ExclusionReason) strIf(v ExclusionVariant) string {
	if r.Variant == v {
		return r.s
	}
	return ""
}

// String renders the reason as a short message, e.g.
// "BudgetExceeded: 2048 tokens requested, 512 available".
func (r ExclusionReason) String() string {
	switch r.Variant {
	case ExclusionBudgetExceeded:
		return "BudgetExceeded: " + formatInt(r.a) + " tokens requested, " + formatInt(r.b) + " available"
	case ExclusionScoredTooLow:
		return "ScoredTooLow: score " + rules.FormatFloat(r.Score()) + " below threshold " + rules.FormatFloat(r.Threshold())
	case ExclusionDeduplicated:
		return "Deduplicated: duplicate of " + strconv.Quote(r.s)
	case ExclusionQuotaCapExceeded:
		return "QuotaCapExceeded: kind " + r.s + " at " + formatInt(r.b) + " over cap " + formatInt(r.a)
	case ExclusionQuotaRequireDisplaced:
		return "QuotaRequireDisplaced: displaced by kind " + r.s
	case ExclusionNegativeTokens:
		return "NegativeTokens: " + formatInt(r.a) + " tokens"
	case ExclusionPinnedOverride:
		return "PinnedOverride: displaced by pinned item " + strconv.Quote(r.s)
	case ExclusionFiltered:
		return "Filtered: by " + r.s
	case ExclusionCountCapExceeded:
		return "CountCapExceeded: kind " + r.s + " already has " + formatInt(r.b) + " of cap " + formatInt(r.a)
	}
	return string(r.Variant)
}

// IncludedItem is an item of the context window with its score and the
// reason it was included (spec chapter 38 (SelectionReport)).
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
// chapter 38 (SelectionReport); rulings 1 to 9).
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

// maxReportLines is the number of included (and of excluded) items that
// SelectionReport.String lists before summing up the rest.
const maxReportLines = 20

// String summarizes the report: one line of counts, then one line per
// included item (in placed order) and per excluded item (in report order),
// at most 20 of each, with contents cut to 40 characters, e.g.
//
//	SelectionReport: 3 candidates (430 tokens), 2 included (130 tokens), 1 excluded, 8 events
//	  included[0]: "You are a support agent." (SystemPrompt, 30 tokens) Pinned score=1
//	  included[1]: "user: how do I unlock my account?" (Message, 100 tokens) Scored score=0.9
//	  excluded[0]: "kb/billing-faq.md" (Document, 300 tokens) score=0.2 BudgetExceeded: 300 tokens requested, 70 available
//
// A nil report is "SelectionReport(nil)". The full report is its JSON.
func (r *SelectionReport) String() string {
	if r == nil {
		return "SelectionReport(nil)"
	}
	var b strings.Builder
	b.WriteString("SelectionReport: " + itoa(r.TotalCandidates) + " candidates (" + itoa(r.TotalTokensConsidered) + " tokens), " +
		itoa(len(r.Included)) + " included (" + itoa(r.IncludedTokens()) + " tokens), " +
		itoa(len(r.Excluded)) + " excluded, " + itoa(len(r.Events)) + " events")
	for i, in := range r.Included {
		if i == maxReportLines {
			b.WriteString("\n  ... and " + itoa(len(r.Included)-i) + " more included")
			break
		}
		b.WriteString("\n  included[" + itoa(i) + "]: " + summarizeItem(in.Item) + " " + string(in.Reason) + " score=" + rules.FormatFloat(in.Score))
	}
	for i, ex := range r.Excluded {
		if i == maxReportLines {
			b.WriteString("\n  ... and " + itoa(len(r.Excluded)-i) + " more excluded")
			break
		}
		b.WriteString("\n  excluded[" + itoa(i) + "]: " + summarizeItem(ex.Item) + " score=" + rules.FormatFloat(ex.Score) + " " + ex.Reason.String())
	}
	for _, s := range r.CountRequirementShortfalls {
		b.WriteString("\n  shortfall: " + string(s.Kind) + " required " + itoa(s.RequiredCount) + ", got " + itoa(s.SatisfiedCount))
	}
	return b.String()
}

// GomegaString is String: Gomega prints it for the report in failure
// messages (Or, ContainElement, Equal, ...) instead of the struct's fields.
func (r *SelectionReport) GomegaString() string { return r.String() }

// summarizeItem renders an item as its quoted content, cut to 40
// characters, with its kind and tokens.
func summarizeItem(it *ContextItem) string {
	if it == nil {
		return "<nil item>"
	}
	content := it.content
	if n := 0; len(content) > 40 {
		for i := range content {
			if n == 40 {
				content = content[:i] + "…"
				break
			}
			n++
		}
	}
	return strconv.Quote(content) + " (" + string(it.kind) + ", " + itoa(it.tokens) + " tokens)"
}
