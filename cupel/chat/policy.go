package chat

import (
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// Policy returns the policy that suits a chat history: RecencyScorer,
// [NewestFirstSlice] and ChronologicalPlacer, deduplicating (harmless on
// numbered items, see [Options].Deduplicate) and throwing on overflow, which
// only pinned system prompts larger than the budget can cause.
//
// It differs from the core's chat preset (policy.Preset("chat"): Recency 3,
// Kind 1, GreedySlice, ChronologicalPlacer) in its slicer. GreedySlice fills
// the budget by score per token (spec chapter 26 (GreedySlice)), so it keeps
// old one-word turns and drops a long recent one, leaving holes in the
// conversation; NewestFirstSlice keeps the newest turns that fit, without a
// gap.
func Policy() cupel.Policy {
	return cupel.Policy{
		Scorer:   scorer.NewRecency(),
		Slicer:   NewestFirstSlice{},
		Placer:   placer.NewChronological(),
		Overflow: cupel.OverflowThrow,
	}
}

// NewestFirstSlice is a slicer for conversations: it walks the candidates
// from the newest timestamp to the oldest and takes each while it fits what
// is left of the target, stopping at the first that does not (the cut). What
// it keeps is therefore the newest stretch of the conversation, without a
// gap: an old turn is never kept while a newer one is dropped, and recent
// turns win over old ones whatever their length, unlike with GreedySlice's
// score per token. A tool exchange is one item, so it stays whole.
//
// The pipeline reports every item a slicer leaves out as BudgetExceeded. For
// the items older than the cut that is not the reason (some would fit what
// is left), so [History.Select] reports them as Filtered by [CutFilterName]
// instead; a pipeline run directly with this slicer does not.
//
// Items without a timestamp come after every timestamped one, in the order
// given; items with negative tokens are never taken. Scores are not used.
// With targetTokens <= 0 it selects nothing, zero-token items included
// (spec chapter 25 (Slicers), contract 4).
//
// It has no state; the zero value is ready and may serve concurrent calls.
type NewestFirstSlice struct{}

// Slice implements [cupel.Slicer]. It does not modify sorted.
func (s NewestFirstSlice) Slice(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]*cupel.ContextItem, error) {
	pos, _ := s.SlicePositions(sorted, budget)
	out := make([]*cupel.ContextItem, len(pos))
	for i, p := range pos {
		out[i] = sorted[p].Item
	}
	return out, nil
}

// SlicePositions returns the positions in sorted of the selected items,
// newest first (the pipeline's [cupel.PositionSlicer] fast path).
func (NewestFirstSlice) SlicePositions(sorted []cupel.ScoredItem, budget cupel.ContextBudget) ([]int, error) {
	if budget.TargetTokens() <= 0 {
		return []int{}, nil
	}
	order := conversationOrder(sorted, true)
	remaining := budget.TargetTokens()
	out := make([]int, 0, len(order))
	for _, i := range order {
		t := sorted[i].Item.Tokens()
		if t > remaining {
			break
		}
		out = append(out, i)
		remaining -= t
	}
	return out, nil
}

// conversationOrder returns the positions in sorted of the items a chat
// slicer considers (those with a non-negative token count), in
// conversation order: by timestamp, oldest first, or newest first when
// newestFirst is set, and items without a timestamp last; ties keep their
// order in sorted.
func conversationOrder(sorted []cupel.ScoredItem, newestFirst bool) []int {
	order := make([]int, 0, len(sorted))
	for i, si := range sorted {
		if si.Item != nil && si.Item.Tokens() >= 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ta, oka := sorted[a].Item.Timestamp()
		tb, okb := sorted[b].Item.Timestamp()
		switch {
		case oka && okb:
			if newestFirst {
				return tb.Compare(ta)
			}
			return ta.Compare(tb)
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return order
}
