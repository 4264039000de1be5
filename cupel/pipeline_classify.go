package cupel

import (
	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
	"github.com/cupel-go/go-cupel/cupel/internal/rules"
)

// classify is the Classify stage (spec chapter 7, "Stage 1: Classify"): it
// partitions items into pinned and scoreable ones; negative-token items are
// excluded before the pinned check; pinned tokens are validated against
// maxTokens - outputReserve (ruling 11).
//
// One pass checks the items (a nil item or an overflowing sum of tokens,
// whichever comes first, is the error) and partitions them: scoreable
// items fill the scoreable buffer from the front and pinned ones from its
// back, copied afterwards, in input order, to the pinned buffer. A traced
// run with negative-token items then records their exclusions in a second
// pass, so that it records none before an error.
func (r *run) classify(items []*ContextItem) (pinned, scoreable []*ContextItem, pinnedTokens int, err error) {
	var pos, neg int
	buf := keysort.Resize(&r.sc.scoreable, len(items))
	front, back := 0, len(buf)
	for i, it := range items {
		if err := r.pollAt(i, StageClassify); err != nil {
			return nil, nil, 0, err
		}
		if it == nil {
			return nil, nil, 0, &ValidationError{Type: "Pipeline input", Field: "items[" + itoa(i) + "]", Value: nil, Reason: "must not be nil", sentinel: ErrInvalidItem}
		}
		var ok bool
		if it.tokens >= 0 {
			pos, ok = rules.AddTokens(pos, it.tokens)
			if it.pinned {
				back--
				buf[back] = it
				pinnedTokens += it.tokens // at most pos
			} else {
				buf[front] = it
				front++
			}
		} else {
			neg, ok = rules.AddTokens(neg, it.tokens)
		}
		if !ok {
			return nil, nil, 0, &TokenOverflowError{What: "the items' tokens"}
		}
	}
	if r.trace != nil && neg < 0 { // neg < 0: some item has negative tokens
		for i, it := range items {
			if err := r.pollAt(i, StageClassify); err != nil {
				return nil, nil, 0, err
			}
			if it.tokens < 0 {
				r.exclude(codeClassify, it, 0, NegativeTokens(it.tokens))
			}
		}
	}
	pinned = keysort.Resize(&r.sc.pinned, len(buf)-back)
	for j := range pinned {
		pinned[j] = buf[len(buf)-1-j]
	}
	available := satSub(r.budget.maxTokens, r.budget.outputReserve)
	if pinnedTokens > available {
		return nil, nil, 0, &PinnedExceedsBudgetError{PinnedTokens: pinnedTokens, Available: available}
	}
	return pinned, buf[:front:front], pinnedTokens, nil
}

// pollAt returns the run's *CanceledError, naming stage, when its context
// is done; it looks only when i is a multiple of rules.PollEvery, so that a loop
// over items can call it at every item.
func (r *run) pollAt(i int, stage PipelineStage) error {
	if i&(rules.PollEvery-1) != 0 {
		return nil
	}
	return r.stop.err(stage)
}
