package slicer

import (
	"context"
	"math"
	"math/bits"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// QuotaEntry configures the require and/or cap percentage of one kind for a
// [QuotaSet] (spec chapter 28 (QuotaSlice)). Build entries with [Require], [Cap]
// or [RequireCap]: an entry records which of the two it configures, so that a
// kind given only a require keeps the default cap of 100% and a kind given
// only a cap keeps the default require of 0%. The zero QuotaEntry has a blank
// kind and is rejected by [NewQuotaSet].
type QuotaEntry struct {
	kind       cupel.ContextKind
	require    float64
	cap        float64
	hasRequire bool
	hasCap     bool
}

// Require returns an entry guaranteeing kind at least percent% of the
// budget; percent must be finite and in [0, 100].
func Require(kind cupel.ContextKind, percent float64) QuotaEntry {
	return QuotaEntry{kind: kind, require: percent, hasRequire: true}
}

// Cap returns an entry limiting kind to at most percent% of the budget;
// percent must be finite and in [0, 100].
func Cap(kind cupel.ContextKind, percent float64) QuotaEntry {
	return QuotaEntry{kind: kind, cap: percent, hasCap: true}
}

// RequireCap returns an entry configuring both the require and the cap of kind.
func RequireCap(kind cupel.ContextKind, require, cap float64) QuotaEntry {
	return QuotaEntry{kind: kind, require: require, cap: cap, hasRequire: true, hasCap: true}
}

// Kind returns the entry's kind.
func (e QuotaEntry) Kind() cupel.ContextKind { return e.kind }

// Require returns the entry's require percentage and whether it sets one.
func (e QuotaEntry) Require() (float64, bool) { return e.require, e.hasRequire }

// Cap returns the entry's cap percentage and whether it sets one.
func (e QuotaEntry) Cap() (float64, bool) { return e.cap, e.hasCap }

// quota is a resolved per-kind configuration.
type quota struct {
	kind           cupel.ContextKind
	require, cap   float64
	hasReq, hasCap bool
}

// QuotaSet is a validated set of per-kind require/cap percentages for
// [Quota]. Kinds compare with ASCII case folding; a kind keeps the
// spelling of its first entry. Unconfigured kinds have require 0% and cap
// 100%. The zero QuotaSet configures no kind. A QuotaSet is immutable.
type QuotaSet struct {
	quotas []quota
	index  kindIndex
}

// NewQuotaSet validates entries and returns the set, or a [*cupel.ValidationError]
// wrapping [cupel.ErrInvalidConfig]. Entries for the same kind (under ASCII case
// folding) are merged: one may give the require and another the cap; giving
// the same one twice with different values is an error. Rules (spec chapter
// 28 (QuotaSlice)): kinds are not blank; percentages are finite and in
// [0, 100]; require <= cap for every kind; the requires sum to at most 100
// (an exact float64 sum in declaration order).
func NewQuotaSet(entries ...QuotaEntry) (QuotaSet, error) {
	var s QuotaSet
	for i, e := range entries {
		f := "entries[" + strconv.Itoa(i) + "]"
		if rules.IsBlank(string(e.kind)) {
			return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f+".kind", string(e.kind), "must not be empty or white space")
		}
		if e.hasRequire && !validPercent(e.require) {
			return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f+".require", e.require, "must be a finite percentage in [0, 100]")
		}
		if e.hasCap && !validPercent(e.cap) {
			return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f+".cap", e.cap, "must be a finite percentage in [0, 100]")
		}
		if !e.hasRequire && !e.hasCap {
			return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f, string(e.kind), "sets neither a require nor a cap (build entries with Require, Cap or RequireCap)")
		}
		j := s.index.find(e.kind)
		if j < 0 {
			j = s.index.add(e.kind)
			s.quotas = append(s.quotas, quota{kind: e.kind, cap: 100})
		}
		q := &s.quotas[j]
		if e.hasRequire {
			if q.hasReq && q.require != e.require {
				return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f+".require", e.require, "conflicts with the require "+rules.FormatFloat(q.require)+" already given for kind "+string(q.kind))
			}
			q.require, q.hasReq = e.require, true
		}
		if e.hasCap {
			if q.hasCap && q.cap != e.cap {
				return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", f+".cap", e.cap, "conflicts with the cap "+rules.FormatFloat(q.cap)+" already given for kind "+string(q.kind))
			}
			q.cap, q.hasCap = e.cap, true
		}
	}
	sum := 0.0
	for _, q := range s.quotas {
		if q.require > q.cap {
			return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", "require", q.require, "of kind "+string(q.kind)+" must be <= its cap ("+rules.FormatFloat(q.cap)+")")
		}
		sum += q.require
	}
	if sum > 100 {
		return QuotaSet{}, enginehook.InvalidConfig("QuotaSet", "require", sum, "percentages must sum to at most 100")
	}
	return s, nil
}

func validPercent(p float64) bool { return p >= 0 && p <= 100 } // false for NaN

// Len returns the number of configured kinds.
func (s QuotaSet) Len() int { return len(s.quotas) }

// Kinds returns the configured kinds in declaration order, as first spelled.
func (s QuotaSet) Kinds() []cupel.ContextKind {
	out := make([]cupel.ContextKind, len(s.quotas))
	for i, q := range s.quotas {
		out[i] = q.kind
	}
	return out
}

// Require returns the require percentage of kind (0 when not configured).
func (s QuotaSet) Require(kind cupel.ContextKind) float64 {
	if i := s.index.find(kind); i >= 0 {
		return s.quotas[i].require
	}
	return 0
}

// Cap returns the cap percentage of kind (100 when not configured).
func (s QuotaSet) Cap(kind cupel.ContextKind) float64 {
	if i := s.index.find(kind); i >= 0 {
		return s.quotas[i].cap
	}
	return 100
}

// Entries returns one RequireCap entry per configured kind, in declaration
// order; NewQuotaSet(s.Entries()...) rebuilds an equal set.
func (s QuotaSet) Entries() []QuotaEntry {
	out := make([]QuotaEntry, len(s.quotas))
	for i, q := range s.quotas {
		out[i] = RequireCap(q.kind, q.require, q.cap)
	}
	return out
}

// Quota is the spec's QuotaSlice (chapter 28): it partitions items by kind,
// shares the budget between kinds by require/cap percentages and candidate
// token mass, and lets an inner slicer select within each kind.
//
// It follows QUOTA-SLICE and DISTRIBUTE-BUDGET exactly:
//
//   - requireTokens = floor(require/100 * target), capTokens = floor(cap/100 *
//     target) for every configured kind, present in the input or not;
//   - unassigned = max(0, target - Σ requireTokens);
//   - a kind present in the input whose cap exceeds its require gets
//     proportional = floor(unassigned * mass / totalMass), computed exactly
//     in 128-bit arithmetic, where mass is the sum of its items' tokens;
//   - its budget is min(require + proportional, cap), and the inner slicer
//     runs on ContextBudget(maxTokens: capTokens, targetTokens: budget)
//     unless the budget is <= 0.
//
// The budgets of the kinds therefore sum to at most the target, so the
// selection never exceeds it. With percentages whose exact sum is at most
// 100 this follows from the formulas; float64 rounding, however, can make
// Σ requireTokens exceed a very large target (requires 50 and
// 50.000000000000007, whose float64 sum is 100, over a target of 2^62 exceed
// it by 512 tokens), so each kind's budget is also clamped to what the kinds
// visited before it left of the target. The clamp changes nothing whenever
// Σ requireTokens <= target.
//
// Kinds are compared with ASCII case folding and visited in the order they
// first appear in the input (ruling 16); the output is the inner
// selections concatenated in that order. The input budget's maxTokens is not
// used, as in the spec.
//
// Decisions where the spec is silent: ScoredItems with a nil Item and items
// with negative tokens are dropped before partitioning (they neither count
// toward a kind's mass nor reach the inner slicer); a token mass that
// overflows int is a [*cupel.TokenOverflowError]; errors of the inner slicer are
// returned as they are.
//
// A Quota is immutable and safe for concurrent use if its inner slicer is.
type Quota struct {
	quotas QuotaSet
	inner  cupel.Slicer
}

// NewQuota returns a Quota, or a [*cupel.ValidationError] wrapping
// [cupel.ErrInvalidConfig] when inner is nil.
func NewQuota(quotas QuotaSet, inner cupel.Slicer) (*Quota, error) {
	if enginehook.IsNil(inner) {
		return nil, enginehook.InvalidConfig("QuotaSlice", "inner", nil, "must not be nil")
	}
	return &Quota{quotas: quotas, inner: inner}, nil
}

// Quotas returns the slicer's quota set.
func (q *Quota) Quotas() QuotaSet { return q.quotas }

// Inner returns the inner slicer.
func (q *Quota) Inner() cupel.Slicer { return q.inner }

// Slice implements [cupel.Slicer]: QUOTA-SLICE (see slice). It does not modify
// sorted.
func (q *Quota) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	return q.slice(context.Background(), sorted, budget)
}

// kindPartition is one kind's partition in QUOTA-SLICE: the kind as first
// spelled in the input, its items in input order and their token mass.
type kindPartition struct {
	kind  cupel.ContextKind
	items []cupel.ScoredItem
	mass  int
}

// slice is QUOTA-SLICE of spec chapter 28 (QuotaSlice), section Algorithm,
// with the decisions listed on Quota; it calls the inner slicer
// through sliceInner(ctx, ...), so that a non-nil ctx reaches it.
func (q *Quota) slice(ctx context.Context, scoredItems []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	if q == nil || enginehook.IsNil(q.inner) {
		return nil, enginehook.InvalidConfig("QuotaSlice", "inner", nil, "must not be nil")
	}
	if len(scoredItems) == 0 || budget.TargetTokens() <= 0 {
		return []*cupel.ContextItem{}, nil
	}
	targetTokens := budget.TargetTokens()

	// Phase 1: partition by ContextKind (ASCII case folding), in the order
	// the kinds first appear (ruling 16). Nil items and items with
	// negative tokens are left out.
	var kinds kindIndex
	var partitions []kindPartition
	for _, si := range scoredItems {
		if si.Item == nil || si.Item.Tokens() < 0 {
			continue
		}
		p := kinds.find(si.Item.Kind())
		if p < 0 {
			p = kinds.add(si.Item.Kind())
			partitions = append(partitions, kindPartition{kind: si.Item.Kind()})
		}
		partitions[p].items = append(partitions[p].items, si)
	}

	// Phase 2: candidate token mass per kind.
	for i := range partitions {
		p := &partitions[i]
		for _, si := range p.items {
			mass, ok := rules.AddTokens(p.mass, si.Item.Tokens())
			if !ok {
				return nil, &cupel.TokenOverflowError{What: "QuotaSlice candidate tokens of kind " + string(p.kind)}
			}
			p.mass = mass
		}
	}

	// Phase 3: budget distribution.
	kindBudgets, err := q.distributeBudget(partitions, targetTokens)
	if err != nil {
		return nil, err
	}

	// Phase 4: per-kind slicing.
	allSelected := []*cupel.ContextItem{}
	for i, p := range partitions {
		kindBudget := kindBudgets[i]
		if kindBudget <= 0 {
			continue
		}
		capTokens := rules.FloorMul(targetTokens, q.quotas.Cap(p.kind)/100.0)
		// kindBudget <= capTokens (DISTRIBUTE-BUDGET clamps it), so
		// sliceBudget's own clamp changes nothing.
		selected, err := sliceInner(ctx, q.inner, p.items, budgetOf(capTokens, kindBudget))
		if err != nil {
			return nil, err
		}
		allSelected = append(allSelected, selected...)
	}
	return allSelected, nil
}

// distributeBudget is DISTRIBUTE-BUDGET of spec chapter 28 (QuotaSlice),
// section Budget Distribution: the budget of each partition, in partition
// order.
func (q *Quota) distributeBudget(partitions []kindPartition, targetTokens int) ([]int, error) {
	// Step 1: require and cap tokens; an unconfigured kind has require 0%
	// and cap 100% (QuotaSet's defaults), so 0 and targetTokens.
	requireTokens := func(k cupel.ContextKind) int { return rules.FloorMul(targetTokens, q.quotas.Require(k)/100.0) }
	capTokens := func(k cupel.ContextKind) int { return rules.FloorMul(targetTokens, q.quotas.Cap(k)/100.0) }

	// Step 2: sum the required tokens of every configured kind, present in
	// the input or not (saturating: a sum past the int range leaves nothing
	// unassigned either way).
	totalRequired := 0
	for _, qt := range q.quotas.quotas {
		s, ok := rules.AddTokens(totalRequired, requireTokens(qt.kind))
		if !ok {
			s = math.MaxInt
		}
		totalRequired = s
	}
	unassignedBudget := max(0, targetTokens-totalRequired)

	// Step 3: the mass of the kinds that can receive beyond their require.
	totalMassForDistribution := 0
	for _, p := range partitions {
		if capTokens(p.kind) > requireTokens(p.kind) {
			s, ok := rules.AddTokens(totalMassForDistribution, p.mass)
			if !ok {
				return nil, &cupel.TokenOverflowError{What: "QuotaSlice candidate tokens"}
			}
			totalMassForDistribution = s
		}
	}

	// Step 4: distribute per kind.
	kindBudgets := make([]int, len(partitions))
	assigned := 0 // Σ kindBudgets so far, <= targetTokens
	for i, p := range partitions {
		require, cap := requireTokens(p.kind), capTokens(p.kind)
		proportional := 0
		if totalMassForDistribution > 0 && cap > require {
			// Exact in 128 bits: unassignedBudget * mass can exceed int.
			proportional = mulDivFloor(unassignedBudget, p.mass, totalMassForDistribution)
		}
		// No overflow: when unassignedBudget > 0, require + proportional
		// <= require + unassignedBudget <= targetTokens.
		kindBudget := min(require+proportional, cap)
		// The clamp to what is left of the target never binds when
		// totalRequired <= targetTokens (then Σ kindBudgets <=
		// totalRequired + unassignedBudget = targetTokens); it binds only
		// when float64 rounding of the percentages makes Σ requireTokens
		// exceed the target, which exact arithmetic cannot.
		kindBudget = min(kindBudget, targetTokens-assigned)
		assigned += kindBudget
		kindBudgets[i] = kindBudget
	}
	return kindBudgets, nil
}

// mulDivFloor returns floor(a*b/c) for a, b >= 0, c > 0 and b <= c, computed
// exactly in 128 bits (the result is <= a, so it fits).
func mulDivFloor(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // hi < c because b <= c
	return int(q)
}

// NeedsWholeSet implements [cupel.WholeSetSlicer]: the quotas share out the
// budget of the whole candidate set, so a streamed run refuses the slicer.
func (*Quota) NeedsWholeSet() bool { return true }
