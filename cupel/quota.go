package cupel

import (
	"math"
	"math/bits"
)

// QuotaEntry configures the require and/or cap percentage of one kind for a
// [QuotaSet] (spec chapter 28 (QuotaSlice)). Build entries with [Require], [Cap]
// or [RequireCap]: an entry records which of the two it configures, so that a
// kind given only a require keeps the default cap of 100% and a kind given
// only a cap keeps the default require of 0%. The zero QuotaEntry has a blank
// kind and is rejected by [NewQuotaSet].
type QuotaEntry struct {
	kind       ContextKind
	require    float64
	cap        float64
	hasRequire bool
	hasCap     bool
}

// Require returns an entry guaranteeing kind at least percent% of the
// budget; percent must be finite and in [0, 100].
func Require(kind ContextKind, percent float64) QuotaEntry {
	return QuotaEntry{kind: kind, require: percent, hasRequire: true}
}

// Cap returns an entry limiting kind to at most percent% of the budget;
// percent must be finite and in [0, 100].
func Cap(kind ContextKind, percent float64) QuotaEntry {
	return QuotaEntry{kind: kind, cap: percent, hasCap: true}
}

// RequireCap returns an entry configuring both the require and the cap of kind.
func RequireCap(kind ContextKind, require, cap float64) QuotaEntry {
	return QuotaEntry{kind: kind, require: require, cap: cap, hasRequire: true, hasCap: true}
}

// Kind returns the entry's kind.
func (e QuotaEntry) Kind() ContextKind { return e.kind }

// Require returns the entry's require percentage and whether it sets one.
func (e QuotaEntry) Require() (float64, bool) { return e.require, e.hasRequire }

// Cap returns the entry's cap percentage and whether it sets one.
func (e QuotaEntry) Cap() (float64, bool) { return e.cap, e.hasCap }

// quota is a resolved per-kind configuration.
type quota struct {
	kind           ContextKind
	require, cap   float64
	hasReq, hasCap bool
}

// QuotaSet is a validated set of per-kind require/cap percentages for
// [QuotaSlice]. Kinds compare with ASCII case folding; a kind keeps the
// spelling of its first entry. Unconfigured kinds have require 0% and cap
// 100%. The zero QuotaSet configures no kind. A QuotaSet is immutable.
type QuotaSet struct {
	quotas []quota
	index  kindIndex
}

// NewQuotaSet validates entries and returns the set, or a [*ValidationError]
// wrapping [ErrInvalidConfig]. Entries for the same kind (under ASCII case
// folding) are merged: one may give the require and another the cap; giving
// the same one twice with different values is an error. Rules (spec chapter
// 28 (QuotaSlice)): kinds are not blank; percentages are finite and in
// [0, 100]; require <= cap for every kind; the requires sum to at most 100
// (an exact float64 sum in declaration order).
func NewQuotaSet(entries ...QuotaEntry) (QuotaSet, error) {
	var s QuotaSet
	for i, e := range entries {
		f := "entries[" + itoa(i) + "]"
		if isBlank(string(e.kind)) {
			return QuotaSet{}, invalidConfig("QuotaSet", f+".kind", string(e.kind), "must not be empty or white space")
		}
		if e.hasRequire && !validPercent(e.require) {
			return QuotaSet{}, invalidConfig("QuotaSet", f+".require", e.require, "must be a finite percentage in [0, 100]")
		}
		if e.hasCap && !validPercent(e.cap) {
			return QuotaSet{}, invalidConfig("QuotaSet", f+".cap", e.cap, "must be a finite percentage in [0, 100]")
		}
		if !e.hasRequire && !e.hasCap {
			return QuotaSet{}, invalidConfig("QuotaSet", f, string(e.kind), "sets neither a require nor a cap (build entries with Require, Cap or RequireCap)")
		}
		j := s.index.find(e.kind)
		if j < 0 {
			j = s.index.add(e.kind)
			s.quotas = append(s.quotas, quota{kind: e.kind, cap: 100})
		}
		q := &s.quotas[j]
		if e.hasRequire {
			if q.hasReq && q.require != e.require {
				return QuotaSet{}, invalidConfig("QuotaSet", f+".require", e.require, "conflicts with the require "+ftoa(q.require)+" already given for kind "+string(q.kind))
			}
			q.require, q.hasReq = e.require, true
		}
		if e.hasCap {
			if q.hasCap && q.cap != e.cap {
				return QuotaSet{}, invalidConfig("QuotaSet", f+".cap", e.cap, "conflicts with the cap "+ftoa(q.cap)+" already given for kind "+string(q.kind))
			}
			q.cap, q.hasCap = e.cap, true
		}
	}
	sum := 0.0
	for _, q := range s.quotas {
		if q.require > q.cap {
			return QuotaSet{}, invalidConfig("QuotaSet", "require", q.require, "of kind "+string(q.kind)+" must be <= its cap ("+ftoa(q.cap)+")")
		}
		sum += q.require
	}
	if sum > 100 {
		return QuotaSet{}, invalidConfig("QuotaSet", "require", sum, "percentages must sum to at most 100")
	}
	return s, nil
}

func validPercent(p float64) bool { return p >= 0 && p <= 100 } // false for NaN

// Len returns the number of configured kinds.
func (s QuotaSet) Len() int { return len(s.quotas) }

// Kinds returns the configured kinds in declaration order, as first spelled.
func (s QuotaSet) Kinds() []ContextKind {
	out := make([]ContextKind, len(s.quotas))
	for i, q := range s.quotas {
		out[i] = q.kind
	}
	return out
}

// Require returns the require percentage of kind (0 when not configured).
func (s QuotaSet) Require(kind ContextKind) float64 {
	if i := s.index.find(kind); i >= 0 {
		return s.quotas[i].require
	}
	return 0
}

// Cap returns the cap percentage of kind (100 when not configured).
func (s QuotaSet) Cap(kind ContextKind) float64 {
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

// QuotaSlice partitions items by kind, shares the budget between kinds by
// require/cap percentages and candidate token mass, and lets an inner slicer
// select within each kind (spec chapter 28 (QuotaSlice)).
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
// overflows int is a [*TokenOverflowError]; errors of the inner slicer are
// returned as they are.
//
// A QuotaSlice is immutable and safe for concurrent use if its inner slicer is.
type QuotaSlice struct {
	quotas QuotaSet
	inner  Slicer
}

// NewQuotaSlice returns a QuotaSlice, or a [*ValidationError] wrapping
// [ErrInvalidConfig] when inner is nil.
func NewQuotaSlice(quotas QuotaSet, inner Slicer) (*QuotaSlice, error) {
	if isNil(inner) {
		return nil, invalidConfig("QuotaSlice", "inner", nil, "must not be nil")
	}
	return &QuotaSlice{quotas: quotas, inner: inner}, nil
}

// Quotas returns the slicer's quota set.
func (q *QuotaSlice) Quotas() QuotaSet { return q.quotas }

// Inner returns the inner slicer.
func (q *QuotaSlice) Inner() Slicer { return q.inner }

// Slice implements [Slicer]. It does not modify sorted.
func (q *QuotaSlice) Slice(sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	return q.slice(nil, sorted, budget)
}

// slice is Slice calling the inner slicer through sliceItems(c, ...).
func (q *QuotaSlice) slice(c *canceller, sorted []ScoredItem, budget ContextBudget) ([]*ContextItem, error) {
	if q == nil || isNil(q.inner) {
		return nil, invalidConfig("QuotaSlice", "inner", nil, "must not be nil")
	}
	target := budget.targetTokens
	if len(sorted) == 0 || target <= 0 {
		return []*ContextItem{}, nil
	}

	// Phase 1: partition by kind, in first-seen order. part[i] is the
	// partition of sorted[i] (-1: dropped).
	var kinds kindIndex
	type partition struct {
		kind        ContextKind
		mass        int
		count, next int // item count; then the fill cursor into grouped
		budget      int
	}
	var parts []partition
	part := make([]int, len(sorted))
	for i, si := range sorted {
		it := si.Item
		if it == nil || it.tokens < 0 {
			part[i] = -1
			continue
		}
		p := kinds.find(it.kind)
		if p < 0 {
			p = kinds.add(it.kind)
			parts = append(parts, partition{kind: it.kind})
		}
		part[i] = p
		// Phase 2: candidate token mass.
		m, ok := addTokens(parts[p].mass, it.tokens)
		if !ok {
			return nil, &TokenOverflowError{What: "QuotaSlice candidate tokens of kind " + string(it.kind)}
		}
		parts[p].mass = m
		parts[p].count++
	}

	// Phase 3: DISTRIBUTE-BUDGET.
	totalRequired := 0
	for _, qt := range q.quotas.quotas {
		r := floorMul(target, qt.require/100.0)
		if s, ok := addTokens(totalRequired, r); ok {
			totalRequired = s
		} else {
			totalRequired = math.MaxInt
		}
	}
	unassigned := max(0, target-totalRequired)
	reqCap := func(k ContextKind) (int, int) {
		if j := q.quotas.index.find(k); j >= 0 {
			qt := q.quotas.quotas[j]
			return floorMul(target, qt.require/100.0), floorMul(target, qt.cap/100.0)
		}
		return 0, target
	}
	totalMass := 0
	for _, p := range parts {
		if r, c := reqCap(p.kind); c > r {
			s, ok := addTokens(totalMass, p.mass)
			if !ok {
				return nil, &TokenOverflowError{What: "QuotaSlice candidate tokens"}
			}
			totalMass = s
		}
	}
	assigned := 0 // Σ budgets so far, <= target
	for i := range parts {
		p := &parts[i]
		r, c := reqCap(p.kind)
		proportional := 0
		if totalMass > 0 && c > r {
			proportional = mulDivFloor(unassigned, p.mass, totalMass)
		}
		// No overflow: when unassigned > 0, r + proportional <=
		// r + unassigned <= r + target - totalRequired <= target.
		// The clamp to target - assigned never binds when totalRequired <=
		// target (then Σ budgets <= totalRequired + unassigned = target);
		// it binds only when float64 rounding of the percentages makes
		// Σ requireTokens exceed the target, which exact arithmetic cannot.
		p.budget = min(r+proportional, c, target-assigned)
		assigned += p.budget
	}

	// Group the items by partition (stable), in one backing array.
	start := 0
	for i := range parts {
		parts[i].next = start
		start += parts[i].count
	}
	grouped := make([]ScoredItem, start)
	for i, si := range sorted {
		if p := part[i]; p >= 0 {
			grouped[parts[p].next] = si
			parts[p].next++
		}
	}

	// Phase 4: per-kind slicing.
	var out []*ContextItem
	for _, p := range parts {
		if p.budget <= 0 {
			continue
		}
		items := grouped[p.next-p.count : p.next : p.next]
		// capTokens uses the configured cap, or 100% (= target) for an
		// unconfigured kind, the same value DISTRIBUTE-BUDGET used; the kind
		// budget was clamped to it there, so budget <= capTokens always holds
		// and sliceBudget's clamp never changes anything.
		_, capTokens := reqCap(p.kind)
		sel, err := sliceItems(c, q.inner, items, sliceBudget(capTokens, p.budget))
		if err != nil {
			return nil, err
		}
		out = append(out, sel...)
	}
	if out == nil {
		out = []*ContextItem{}
	}
	return out, nil
}

// mulDivFloor returns floor(a*b/c) for a, b >= 0, c > 0 and b <= c, computed
// exactly in 128 bits (the result is <= a, so it fits).
func mulDivFloor(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // hi < c because b <= c
	return int(q)
}
