package cupel

// classify partitions items (spec "Stage 1: Classify"): negative-token items
// are excluded before the pinned check; pinned tokens are validated against
// maxTokens - outputReserve (ruling 11).
func (r *run) classify(items []*ContextItem) (pinned, scoreable []*ContextItem, pinnedTokens int, err error) {
	if r.trace == nil {
		return r.classifyUntraced(items)
	}
	var pos, neg int
	nPinned := 0
	for i, it := range items {
		if i&(pollEvery-1) == 0 && r.stop != nil {
			if err := r.stop.err(StageClassify); err != nil {
				return nil, nil, 0, err
			}
		}
		if it == nil {
			return nil, nil, 0, nilItemError(i)
		}
		var ok bool
		if it.tokens >= 0 {
			pos, ok = addTokens(pos, it.tokens)
			if it.pinned {
				nPinned++
			}
		} else {
			neg, ok = addTokens(neg, it.tokens)
		}
		if !ok {
			return nil, nil, 0, &TokenOverflowError{What: "the items' tokens"}
		}
	}
	// Every sum of non-negative item tokens now fits in an int.
	pinned = resize(&r.sc.pinned, nPinned)[:0]
	scoreable = resize(&r.sc.scoreable, len(items)-nPinned)[:0]
	for i, it := range items {
		if i&(pollEvery-1) == 0 && r.stop != nil {
			if err := r.stop.err(StageClassify); err != nil {
				return nil, nil, 0, err
			}
		}
		switch {
		case it.tokens < 0:
			if r.trace != nil {
				r.exclude(codeClassify, it, 0, NegativeTokens(it.tokens))
			}
		case it.pinned:
			pinned = append(pinned, it)
			pinnedTokens += it.tokens
		default:
			scoreable = append(scoreable, it)
		}
	}
	return r.checkPinned(pinned, scoreable, pinnedTokens)
}

// checkPinned returns classify's results, or the error of pinned tokens
// over maxTokens - outputReserve.
func (r *run) checkPinned(pinned, scoreable []*ContextItem, pinnedTokens int) ([]*ContextItem, []*ContextItem, int, error) {
	available := satSub(r.budget.maxTokens, r.budget.outputReserve)
	if pinnedTokens > available {
		return nil, nil, 0, &PinnedExceedsBudgetError{PinnedTokens: pinnedTokens, Available: available}
	}
	return pinned, scoreable, pinnedTokens, nil
}

// classifyUntraced is classify for a run that records no exclusions: one
// pass instead of two, with the same results and the same errors in the
// same order (a nil item or an overflowing sum, whichever comes first).
// Scoreable items fill the scoreable buffer from the front and pinned ones
// from the back, and are then copied, in input order, to the pinned buffer.
func (r *run) classifyUntraced(items []*ContextItem) (pinned, scoreable []*ContextItem, pinnedTokens int, err error) {
	var pos, neg int
	buf := resize(&r.sc.scoreable, len(items))
	front, back := 0, len(buf)
	for i, it := range items {
		if i&(pollEvery-1) == 0 && r.stop != nil {
			if err := r.stop.err(StageClassify); err != nil {
				return nil, nil, 0, err
			}
		}
		if it == nil {
			return nil, nil, 0, nilItemError(i)
		}
		var ok bool
		if it.tokens >= 0 {
			pos, ok = addTokens(pos, it.tokens)
			if it.pinned {
				back--
				buf[back] = it
				pinnedTokens += it.tokens // at most pos
			} else {
				buf[front] = it
				front++
			}
		} else {
			neg, ok = addTokens(neg, it.tokens)
		}
		if !ok {
			return nil, nil, 0, &TokenOverflowError{What: "the items' tokens"}
		}
	}
	pinned = resize(&r.sc.pinned, len(buf)-back)
	for j := range pinned {
		pinned[j] = buf[len(buf)-1-j]
	}
	return r.checkPinned(pinned, buf[:front:front], pinnedTokens)
}

// nilItemError is classify's error for the nil items[i].
func nilItemError(i int) error {
	return &ValidationError{Type: "Pipeline input", Field: "items[" + itoa(i) + "]", Value: nil, Reason: "must not be nil", sentinel: ErrInvalidItem}
}
