package chat

import (
	"fmt"
	"math"

	"github.com/cupel-go/go-cupel/cupel"
)

// Eviction says which turns a [History] drops when the conversation no
// longer fits the budget.
type Eviction int

const (
	// EvictWindow keeps the newest turns that fit ([NewestFirstSlice]): a
	// sliding window. Once the conversation outgrows the budget its oldest
	// kept turn changes on every new turn, so the prompt's prefix after the
	// pinned turns never repeats and a provider's prompt cache never hits.
	EvictWindow Eviction = iota
	// EvictCache keeps the prompt cache warm. When the conversation
	// outgrows the budget it drops the oldest turns in one step, down to
	// the low-water mark (HistoryOptions.LowWater of the budget); then it
	// drops nothing while new turns are appended and the budget still holds,
	// so every request repeats the previous one as its prefix, byte for
	// byte, until the budget is reached again. Pinned turns stay first and
	// tool exchanges whole, as with EvictWindow.
	//
	// The choice depends only on the conversation and the budget: the same
	// turns select the same stretch whether they were appended one at a
	// time to a History or trimmed at once by an adapter's Trim.
	EvictCache
)

// String returns "window" or "cache".
func (e Eviction) String() string {
	switch e {
	case EvictWindow:
		return "window"
	case EvictCache:
		return "cache"
	}
	return fmt.Sprintf("Eviction(%d)", int(e))
}

// DefaultLowWater is the low-water mark EvictCache drops to when
// HistoryOptions.LowWater is zero: 65% of the budget.
const DefaultLowWater = 0.65

// Filter names of the Filtered reasons [History.Select] gives the turns it
// drops for a reason other than their own size.
const (
	// EvictedFilterName: dropped by EvictCache's step down to the low-water mark.
	EvictedFilterName = "chat.EvictCache (dropped down to the low-water mark)"
	// OpeningFilterName: dropped because the kept stretch must open with a
	// user turn (HistoryOptions.OpenWithUser) and this one does not, or
	// comes before the user turn that opens it.
	OpeningFilterName = "chat.OpenWithUser (the kept turns must open with a user turn)"
)

// drop is why the plan leaves an item out, or keep.
type drop uint8

const (
	keep       drop = iota
	dropBudget      // it does not fit (the pipeline's reason stands)
	dropCut         // older than a turn that did not fit (EvictWindow)
	dropEvicted
	dropOpening
)

// planner is the slicer of a History whose selection is not the plain
// NewestFirstSlice: EvictCache, or either eviction with OpenWithUser. It
// records why it left each item out, for Select's report.
type planner struct {
	eviction     Eviction
	lowWater     float64
	openWithUser bool
	last         map[*cupel.ContextItem]drop
}

// Slice implements [cupel.Slicer].
func (p *planner) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	pos, err := p.SlicePositions(sorted, budget)
	if err != nil {
		return nil, err
	}
	out := make([]*cupel.ContextItem, len(pos))
	for i, k := range pos {
		out[i] = sorted[k].Item
	}
	return out, nil
}

// SlicePositions implements [cupel.PositionSlicer].
func (p *planner) SlicePositions(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	// The candidates in conversation order, oldest first.
	order := conversationOrder(sorted, false)
	tokens := make([]int, len(order))
	users := make([]bool, len(order))
	opens := make([]bool, len(order))
	for k, i := range order {
		it := sorted[i].Item
		tokens[k] = it.Tokens()
		r, _ := it.MetadataValue(RoleKey)
		users[k] = r == string(RoleUser)
		opens[k] = !p.openWithUser || users[k]
	}
	var plan []drop
	if p.eviction == EvictCache {
		plan = cachePlan(tokens, users, opens, budget.TargetTokens(), p.lowWater)
	} else {
		plan = p.windowPlan(sorted, order, opens, budget)
	}
	p.last = make(map[*cupel.ContextItem]drop, len(order))
	out := make([]int, 0, len(order))
	for k := len(order) - 1; k >= 0; k-- { // newest first, as NewestFirstSlice
		i := order[k]
		if plan[k] == keep {
			out = append(out, i)
		} else {
			p.last[sorted[i].Item] = plan[k]
		}
	}
	return out, nil
}

// windowPlan is NewestFirstSlice's choice, then the turns before the first
// user turn of the kept stretch dropped.
func (p *planner) windowPlan(sorted []cupel.ScoredItem, order []int, opens []bool, budget cupel.ContextBudget) []drop {
	kept, _ := NewestFirstSlice{}.SlicePositions(sorted, budget)
	in := make(map[int]bool, len(kept))
	for _, i := range kept {
		in[i] = true
	}
	plan := make([]drop, len(order))
	newestOut := -1
	for k := len(order) - 1; k >= 0; k-- {
		if in[order[k]] {
			continue
		}
		if newestOut < 0 {
			newestOut = k
			plan[k] = dropBudget
		} else {
			plan[k] = dropCut
		}
	}
	for k := newestOut + 1; k < len(order) && !opens[k]; k++ {
		plan[k] = dropOpening
	}
	return plan
}

// cachePlan replays a conversation appended an item at a time under
// EvictCache and returns why each item is left out at the end (keep for
// the kept stretch). tokens are the items' tokens in conversation order,
// users says which items are user turns and opens which may open the kept
// stretch, avail is the budget left after the pinned items and lowWater the
// fraction to drop down to.
//
// When the items from the kept stretch's start to the newest exceed avail,
// the start moves to the first item from which the rest fits in the
// low-water mark, or to the newest user turn if the rest fits in avail from
// there (the newest user turn is kept whenever it fits). If that item may not open the stretch, the start moves
// back to the nearest item before it that may, if the rest fits in avail
// from there (the user turn that opens the stretch is kept), else forward
// to the next item that may (the turns before it are dropped).
func cachePlan(tokens []int, users, opens []bool, avail int, lowWater float64) []drop {
	n := len(tokens)
	plan := make([]drop, n)
	low := int(math.Floor(float64(avail) * lowWater))
	start, sum := 0, 0      // the kept stretch is [start, k]; sum its tokens
	user, fromUser := -1, 0 // the newest user turn, and the tokens from it to k
	for k := 0; k < n; k++ {
		if users[k] {
			user, fromUser = k, 0
		}
		fromUser += tokens[k]
		if start == k && !opens[k] {
			plan[k] = dropOpening
			start = k + 1
			continue
		}
		sum += tokens[k]
		if sum <= avail {
			continue
		}
		// Drop down to the low-water mark: p is the first item from which
		// the rest fits in it (k+1 when item k alone does not).
		p, s := start, sum
		for p <= k && s > low {
			s -= tokens[p]
			p++
		}
		if user >= start && user < p && fromUser <= avail {
			p, s = user, fromUser
		}
		next := k + 1
		if p <= k && opens[p] {
			next = p
		} else {
			// The nearest item before p that may open, if the rest fits.
			s2 := s
			for q := p - 1; q >= start; q-- {
				s2 += tokens[q]
				if s2 > avail {
					break
				}
				if opens[q] {
					next = q
					break
				}
			}
			if next > k { // else the next item after p that may open
				for q := p; q <= k; q++ {
					if opens[q] {
						next = q
						break
					}
				}
			}
		}
		for i := start; i < next; i++ {
			switch {
			case i == k && tokens[k] > avail:
				plan[i] = dropBudget
			case i >= p:
				plan[i] = dropOpening
			default:
				plan[i] = dropEvicted
			}
		}
		start, sum = next, 0
		for i := next; i <= k; i++ {
			sum += tokens[i]
		}
	}
	return plan
}
