package slicer

import (
	"context"
	"slices"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// CountQuotaEntry constrains the number of items of one kind selected by a
// count-quota slicer (spec chapters 29 (CountQuotaSlice) and
// 30 (CountConstrainedKnapsackSlice)): at least RequireCount items are committed
// before the residual selection, and at most CapCount items end up selected.
// Build it with [NewCountQuotaEntry]; the zero value has a blank kind and is
// rejected by the slicer constructors.
type CountQuotaEntry struct {
	kind    cupel.ContextKind
	require int
	cap     int
}

// NewCountQuotaEntry validates and returns an entry, or a [*cupel.ValidationError]
// wrapping [cupel.ErrInvalidConfig]. Rules (ruling 17): kind is not blank,
// requireCount >= 0, capCount >= 0, requireCount <= capCount, and capCount = 0
// only together with requireCount = 0.
func NewCountQuotaEntry(kind cupel.ContextKind, requireCount, capCount int) (CountQuotaEntry, error) {
	e := CountQuotaEntry{kind: kind, require: requireCount, cap: capCount}
	if err := e.validate("CountQuotaEntry", ""); err != nil {
		return CountQuotaEntry{}, err
	}
	return e, nil
}

func (e CountQuotaEntry) validate(typ, prefix string) error {
	switch {
	case rules.IsBlank(string(e.kind)):
		return enginehook.InvalidConfig(typ, prefix+"kind", string(e.kind), "must not be empty or white space")
	case e.require < 0:
		return enginehook.InvalidConfig(typ, prefix+"requireCount", e.require, "must be >= 0")
	case e.cap < 0:
		return enginehook.InvalidConfig(typ, prefix+"capCount", e.cap, "must be >= 0")
	case e.cap == 0 && e.require > 0:
		return enginehook.InvalidConfig(typ, prefix+"capCount", e.cap, "must be > 0 when requireCount is > 0 ("+strconv.Itoa(e.require)+")")
	case e.require > e.cap:
		return enginehook.InvalidConfig(typ, prefix+"requireCount", e.require, "must be <= capCount ("+strconv.Itoa(e.cap)+")")
	}
	return nil
}

// Kind returns the constrained kind, as spelled.
func (e CountQuotaEntry) Kind() cupel.ContextKind { return e.kind }

// RequireCount returns the minimum number of items committed in Phase 1.
func (e CountQuotaEntry) RequireCount() int { return e.require }

// CapCount returns the maximum number of items of the kind in the result.
func (e CountQuotaEntry) CapCount() int { return e.cap }

// countPolicy is the configuration and algorithm the two count-quota slicers
// share: Phase 1 (count-satisfy) and Phase 3 (cap enforcement).
type countPolicy struct {
	name     string // for error messages
	entries  []CountQuotaEntry
	index    kindIndex
	scarcity ScarcityBehavior
}

func newCountPolicy(typ string, entries []CountQuotaEntry, scarcity ScarcityBehavior) (countPolicy, error) {
	p := countPolicy{name: typ, scarcity: scarcity}
	if scarcity != ScarcityDegrade && scarcity != ScarcityThrow {
		return countPolicy{}, enginehook.InvalidConfig(typ, "scarcity", int(scarcity), "must be ScarcityDegrade or ScarcityThrow")
	}
	p.entries = make([]CountQuotaEntry, 0, len(entries))
	for i, e := range entries {
		f := "entries[" + strconv.Itoa(i) + "]."
		if err := e.validate(typ, f); err != nil {
			return countPolicy{}, err
		}
		if j := p.index.find(e.kind); j >= 0 {
			return countPolicy{}, enginehook.InvalidConfig(typ, f+"kind", string(e.kind), "duplicates kind "+string(p.entries[j].kind)+" (kinds compare case-insensitively)")
		}
		p.index.add(e.kind)
		p.entries = append(p.entries, e)
	}
	return p, nil
}

// phase2Func runs the residual selection of a count-quota slicer.
type phase2Func func(residual []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error)

// run is COUNT-QUOTA-SLICE of spec chapter 29 (CountQuotaSlice), section
// Algorithm, which is also COUNT-KNAPSACK-CAP of chapter 30
// (CountConstrainedKnapsackSlice) when phase2 is the knapsack followed by
// its re-sort, with the decisions listed on CountQuota. ctx
// is polled after each Phase 1 sort and before and after Phase 2.
func (p *countPolicy) run(ctx context.Context, scoredItems []cupel.ScoredItem, budget cupel.ContextBudget, phase2 phase2Func) (cupel.SliceResult, error) {
	if len(scoredItems) == 0 || budget.TargetTokens() <= 0 {
		return cupel.SliceResult{Selected: []*cupel.ContextItem{}}, nil
	}
	var res cupel.SliceResult

	// --- Phase 1: Count-Satisfy ---

	// Partition the candidates by entry (ASCII case folding), in input
	// order. Only the kinds with requireCount > 0 are read, so only they
	// are partitioned; nil items and items with negative tokens are left
	// out.
	partitions := make([][]cupel.ScoredItem, len(p.entries))
	for _, si := range scoredItems {
		if si.Item == nil || si.Item.Tokens() < 0 {
			continue
		}
		if e := p.index.find(si.Item.Kind()); e >= 0 && p.entries[e].require > 0 {
			partitions[e] = append(partitions[e], si)
		}
	}

	// Sort each partition by score descending (-0.0 = +0.0, NaN last,
	// ruling 6), input order breaking ties.
	for _, candidates := range partitions {
		slices.SortStableFunc(candidates, func(a, b cupel.ScoredItem) int { return keysort.CompareScoreDesc(a.Score, b.Score) })
		if err := stopped(ctx); err != nil {
			return cupel.SliceResult{}, err
		}
	}

	committed := []*cupel.ContextItem{}
	committedSet := map[*cupel.ContextItem]bool{} // identity (ruling 14)
	selectedCount := make([]int, len(p.entries))
	preAllocatedTokens := 0
	for e, entry := range p.entries { // declaration order (ruling 18)
		if entry.require == 0 {
			continue
		}
		satisfied := 0
		for _, candidate := range partitions[e] {
			if satisfied == entry.require {
				break
			}
			committed = append(committed, candidate.Item)
			committedSet[candidate.Item] = true
			tokens, ok := rules.AddTokens(preAllocatedTokens, candidate.Item.Tokens())
			if !ok {
				return cupel.SliceResult{}, &cupel.TokenOverflowError{What: p.name + " Phase 1 committed tokens"}
			}
			preAllocatedTokens = tokens
			satisfied++
		}
		selectedCount[e] = satisfied
		if satisfied < entry.require {
			if p.scarcity == ScarcityThrow {
				return cupel.SliceResult{}, &CountRequirementError{Slicer: p.name, Kind: entry.kind, Satisfied: satisfied, RequireCount: entry.require}
			}
			res.Shortfalls = append(res.Shortfalls, cupel.CountRequirementShortfall{Kind: entry.kind, RequiredCount: entry.require, SatisfiedCount: satisfied})
		}
	}

	// --- Phase 2: Budget-Distribute ---

	residual := make([]cupel.ScoredItem, 0, len(scoredItems)-len(committed))
	for _, si := range scoredItems {
		if si.Item == nil || si.Item.Tokens() < 0 || committedSet[si.Item] {
			continue
		}
		residual = append(residual, si)
	}
	residualTarget := max(0, budget.TargetTokens()-preAllocatedTokens)
	residualBudget := budgetOf(budget.MaxTokens(), min(residualTarget, budget.MaxTokens()))
	if err := stopped(ctx); err != nil {
		return cupel.SliceResult{}, err
	}
	innerSelected, err := phase2(residual, residualBudget)
	if err == nil {
		err = stopped(ctx)
	}
	if err != nil {
		return cupel.SliceResult{}, err
	}

	// --- Phase 3: Cap Enforcement ---

	// selectedCount is seeded by Phase 1 (D181); kinds without an entry
	// are uncapped.
	result := committed
	for _, item := range innerSelected {
		if item == nil {
			continue
		}
		e := p.index.find(item.Kind())
		if e < 0 {
			result = append(result, item)
			continue
		}
		entry := p.entries[e]
		if count := selectedCount[e]; count >= entry.cap {
			res.CapExcluded = append(res.CapExcluded, cupel.CapExclusion{Item: item, Kind: entry.kind, Cap: entry.cap, Count: count})
			continue
		}
		result = append(result, item)
		selectedCount[e]++
	}
	res.Selected = result
	return res, nil
}

// CountQuota is the spec's CountQuotaSlice (chapter 29): it commits the top
// requireCount items of each constrained kind, lets an inner slicer select
// from the remaining items under the remaining budget, and drops inner
// selections of kinds that reached their capCount.
//
//   - Phase 1 walks the entries in declaration order (ruling 18);
//     each kind's candidates are taken by score descending (-0.0 = +0.0, NaN
//     last), input order breaking ties. A requirement that cannot be met
//     records a shortfall (kind, required, satisfied) under ScarcityDegrade —
//     a required kind with no candidates records (kind, required, 0) — and
//     fails the call with a [*CountRequirementError] under ScarcityThrow.
//   - Phase 2 hands the inner slicer the uncommitted items (input order) and
//     ContextBudget(maxTokens: budget.MaxTokens(), targetTokens:
//     min(max(0, target - committed tokens), maxTokens)).
//   - Phase 3 keeps each inner selection in order unless its kind has an
//     entry and already has capCount selected items (Phase 1 included); such
//     items are reported as [cupel.CapExclusion]s (ruling 4).
//
// The output is the committed items (commit order) followed by the kept
// inner selections (inner order). Kinds compare with ASCII case folding. An
// empty input or targetTokens <= 0 selects nothing and reports nothing.
//
// Decisions where the spec is silent: ScoredItems with a nil Item and items
// with negative tokens are neither committed nor passed to the inner slicer;
// nil items returned by the inner slicer are ignored; committed tokens that
// overflow int give a [*cupel.TokenOverflowError].
//
// A CountQuota is immutable and safe for concurrent use if its inner
// slicer is; the details of a call are returned by [CountQuota.SliceDetailed].
type CountQuota struct {
	policy countPolicy
	inner  cupel.Slicer
}

// NewCountQuota returns a CountQuota, or a [*cupel.ValidationError]
// wrapping [cupel.ErrInvalidConfig] when an entry is invalid (see
// [NewCountQuotaEntry]; the zero entry is invalid), two entries name the same
// kind under ASCII case folding, inner is nil, or scarcity is not a defined
// value.
//
// inner must not be a [*Knapsack] (spec: the guard is enforced at
// construction) nor a [*CountConstrainedKnapsack]: neither returns its
// selection in score order, which the cap enforcement relies on. Use
// [NewCountConstrainedKnapsack] for knapsack selection under count quotas.
func NewCountQuota(entries []CountQuotaEntry, inner cupel.Slicer, scarcity ScarcityBehavior) (*CountQuota, error) {
	const typ = "CountQuotaSlice"
	if enginehook.IsNil(inner) {
		return nil, enginehook.InvalidConfig(typ, "inner", nil, "must not be nil")
	}
	// The chapter's Knapsack guard, at construction: a check of the
	// configuration, not a choice of code path.
	const noKnapsack = "must not be a KnapsackSlice; use CountConstrainedKnapsackSlice for knapsack selection with count quotas"
	switch inner.(type) {
	case *Knapsack:
		return nil, enginehook.InvalidConfig(typ, "inner", "*slicer.Knapsack", noKnapsack)
	case *CountConstrainedKnapsack:
		return nil, enginehook.InvalidConfig(typ, "inner", "*slicer.CountConstrainedKnapsack", noKnapsack)
	}
	p, err := newCountPolicy(typ, entries, scarcity)
	if err != nil {
		return nil, err
	}
	return &CountQuota{policy: p, inner: inner}, nil
}

// Entries returns a copy of the entries, in declaration order.
func (c *CountQuota) Entries() []CountQuotaEntry {
	return append([]CountQuotaEntry(nil), c.policy.entries...)
}

// Scarcity returns the scarcity behaviour.
func (c *CountQuota) Scarcity() ScarcityBehavior { return c.policy.scarcity }

// Inner returns the inner slicer.
func (c *CountQuota) Inner() cupel.Slicer { return c.inner }

// Slice implements [cupel.Slicer]: SliceDetailed(...).Selected, the selection of
// COUNT-QUOTA-SLICE (spec chapter 29 (CountQuotaSlice), section Algorithm;
// see countPolicy.run, which CountConstrainedKnapsack shares).
func (c *CountQuota) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	r, err := c.SliceDetailed(sorted, budget)
	return r.Selected, err
}

// SliceDetailed implements [cupel.DetailedSlicer]. It does not modify sorted.
func (c *CountQuota) SliceDetailed(sorted []cupel.ScoredItem, budget cupel.ContextBudget) (cupel.SliceResult, error) {
	if c == nil || enginehook.IsNil(c.inner) {
		return cupel.SliceResult{}, enginehook.InvalidConfig("CountQuotaSlice", "inner", nil, "must not be nil")
	}
	p := c.policy
	p.name = "CountQuotaSlice"
	return p.run(context.Background(), sorted, budget, c.inner.Slice)
}

// NeedsWholeSet implements [cupel.WholeSetSlicer]: the count quotas apply to the
// whole candidate set, so a streamed run refuses the slicer.
func (*CountQuota) NeedsWholeSet() bool { return true }
