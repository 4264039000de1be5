package chat

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// HistoryOptions configure a [History].
type HistoryOptions struct {
	// Options say how turns become items, as for [Items].
	Options
	// Policy selects the context; nil means [Policy].
	Policy *cupel.Policy
}

// History is a conversation that grows by a turn at a time, kept as items
// with each turn's token count cached: appending a turn counts that turn
// only (a tool result rebuilds its exchange's item from the cached counts),
// so selecting after every new turn costs one count, not a recount of the
// whole conversation.
//
// A History is not safe for concurrent use; the items it hands out are
// immutable and may be shared freely.
type History struct {
	counter  cupel.TokenCounter
	opts     Options
	start    time.Time
	pipeline *cupel.Pipeline
	cuts     bool // the slicer is a NewestFirstSlice: relabel what it cut

	turns  []Turn
	counts []int // counts[i]: tokens of turns[i]
	items  []*cupel.ContextItem
	starts []int // starts[k]: index of the first turn of items[k]
}

// NewHistory returns an empty History that counts with counter. A nil
// counter, a negative PerTurnTokens or an invalid policy gives an error
// wrapping [cupel.ErrInvalidArgument] or [cupel.ErrInvalidConfig].
func NewHistory(counter cupel.TokenCounter, opts HistoryOptions) (*History, error) {
	if counter == nil {
		return nil, fmt.Errorf("%w: chat.NewHistory: counter must not be nil", cupel.ErrInvalidArgument)
	}
	if opts.PerTurnTokens < 0 {
		return nil, fmt.Errorf("%w: chat.NewHistory: PerTurnTokens must be >= 0 (got %d)", cupel.ErrInvalidArgument, opts.PerTurnTokens)
	}
	policy := Policy()
	if opts.Policy != nil {
		policy = *opts.Policy
	}
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		return nil, err
	}
	start := opts.Start
	if start.IsZero() {
		start = DefaultStart
	}
	cuts := false
	switch policy.Slicer.(type) {
	case NewestFirstSlice, *NewestFirstSlice:
		cuts = true
	}
	return &History{counter: counter, opts: opts.Options, start: start, pipeline: p, cuts: cuts}, nil
}

// Append adds turns to the end of the conversation, counting each once. On
// error (see [Items] for what is checked) nothing is appended. The turns are
// copied; their Raw values are kept as they are.
func (h *History) Append(turns ...Turn) error {
	// Work on a copy of the state's headers: appends land past the committed
	// lengths, and the one item that may be replaced is copied on write.
	st := *h
	committedItems := len(h.items)
	for _, t := range turns {
		index := len(st.turns)
		if err := validate(t, index); err != nil {
			return err
		}
		n, err := countTurn(h.counter, t, h.opts.PerTurnTokens, index)
		if err != nil {
			return err
		}
		t.ToolCalls = slices.Clone(t.ToolCalls)
		st.turns = append(st.turns, t)
		st.counts = append(st.counts, n)

		if t.ToolCallID != "" {
			last := len(st.items) - 1
			if last < 0 || !answers(st.turns[st.starts[last]], t.ToolCallID) {
				return &TurnError{Index: index, Field: "ToolCallID", Reason: "answers no tool call of the assistant turn before it (" + quote(t.ToolCallID) + "); a tool result must follow its call"}
			}
			it, err := st.build(st.starts[last], index+1)
			if err != nil {
				return err
			}
			if last < committedItems {
				st.items = append(st.items[:last:last], it)
				committedItems = last
			} else {
				st.items[last] = it
			}
			continue
		}
		it, err := st.build(index, index+1)
		if err != nil {
			return err
		}
		st.items = append(st.items, it)
		st.starts = append(st.starts, index)
	}
	*h = st
	return nil
}

func quote(s string) string { return `"` + s + `"` }

// answers reports whether id names one of first's tool calls.
func answers(first Turn, id string) bool {
	for _, c := range first.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// build makes the item of turns [from, to) from the cached counts.
func (h *History) build(from, to int) (*cupel.ContextItem, error) {
	turns := h.turns[from:to]
	var b strings.Builder
	tokens := 0
	for k, t := range turns {
		render(&b, t, from+k, !h.opts.Deduplicate)
		tokens += h.counts[from+k]
	}
	first := turns[0]
	ts := h.start.Add(time.Duration(from) * time.Second)
	spec := cupel.ItemSpec{
		Content:   b.String(),
		Tokens:    tokens,
		Timestamp: &ts,
		Metadata: map[string]any{
			RoleKey:  string(first.Role),
			IndexKey: from,
			TurnsKey: slices.Clone(turns),
		},
	}
	switch {
	case first.Role.IsSystem():
		spec.Kind, spec.Pinned = cupel.KindSystemPrompt, true
	case len(first.ToolCalls) > 0:
		spec.Kind, spec.Source = cupel.KindToolOutput, cupel.SourceTool
	}
	return cupel.NewItem(spec)
}

// Len returns the number of turns.
func (h *History) Len() int { return len(h.turns) }

// Turns returns a copy of the conversation's turns.
func (h *History) Turns() []Turn {
	out := slices.Clone(h.turns)
	for i := range out {
		out[i].ToolCalls = slices.Clone(out[i].ToolCalls)
	}
	return out
}

// Items returns the conversation's items in turn order: one per turn, one per
// tool exchange. The slice is a copy; the items are shared and immutable.
func (h *History) Items() []*cupel.ContextItem { return slices.Clone(h.items) }

// Tokens returns the sum of every turn's tokens.
func (h *History) Tokens() int {
	n := 0
	for _, c := range h.counts {
		n += c
	}
	return n
}

// Selection is what [History.Select] chose.
type Selection struct {
	// Turns are the selected turns, in placed order, ready to send.
	Turns []Turn
	// Result is the pipeline's result; Result.Items are the selected items.
	Result cupel.Result
	// Report explains every inclusion and exclusion.
	Report *cupel.SelectionReport
}

// CutFilterName is the filter name of the Filtered reason [History.Select]
// gives the items older than [NewestFirstSlice]'s cut.
const CutFilterName = "chat.NewestFirstSlice (older than a turn that did not fit)"

// Select runs the history's policy over the conversation under budget and
// returns the turns to send, with the report. It counts nothing.
//
// With a [NewestFirstSlice] (the default policy), the newest item left out
// is reported BudgetExceeded (or PinnedOverride, ruling 2), and every item
// older than it, left out to keep
// the conversation without a gap, is reported Filtered by [CutFilterName]
// (a reason the spec reserves for custom stages, spec chapter 37 (Exclusion
// Reasons)), in the report's excluded list and its events alike.
func (h *History) Select(budget cupel.ContextBudget) (Selection, error) {
	rep := new(cupel.SelectionReport)
	res, err := h.pipeline.Run(h.items, budget, cupel.WithReport(rep))
	if err != nil {
		return Selection{}, err
	}
	if h.cuts {
		relabelCut(rep)
	}
	turns, err := Turns(res.Items)
	if err != nil {
		return Selection{}, err
	}
	return Selection{Turns: turns, Result: res, Report: rep}, nil
}

// Select selects from a whole conversation at once: it builds a [History]
// of turns with counter and opts, and returns what [History.Select] returns
// for budget. The SDK adapters' Trim functions are built on it; for a
// conversation that grows a turn at a time, keep a History instead, which
// counts each turn once.
func Select(turns []Turn, counter cupel.TokenCounter, budget cupel.ContextBudget, opts HistoryOptions) (Selection, error) {
	h, err := NewHistory(counter, opts)
	if err != nil {
		return Selection{}, err
	}
	if err := h.Append(turns...); err != nil {
		return Selection{}, err
	}
	return h.Select(budget)
}

// relabelCut gives the items older than the newest item a NewestFirstSlice
// left out for lack of budget the reason Filtered(CutFilterName).
func relabelCut(rep *cupel.SelectionReport) {
	// The slicer's exclusions: BudgetExceeded, or PinnedOverride when the
	// item would have fitted without the pinned items (ruling 2).
	sliced := func(r cupel.ExclusionReason) bool {
		return r.Variant == cupel.ExclusionBudgetExceeded || r.Variant == cupel.ExclusionPinnedOverride
	}
	var cut time.Time
	found := false
	for _, ex := range rep.Excluded {
		if !sliced(ex.Reason) {
			continue
		}
		if ts, ok := ex.Item.Timestamp(); ok && (!found || ts.After(cut)) {
			cut, found = ts, true
		}
	}
	if !found {
		return
	}
	older := func(it *cupel.ContextItem, r cupel.ExclusionReason) bool {
		if !sliced(r) {
			return false
		}
		ts, ok := it.Timestamp()
		return !ok || ts.Before(cut)
	}
	filtered := cupel.Filtered(CutFilterName)
	for i, ex := range rep.Excluded {
		if older(ex.Item, ex.Reason) {
			rep.Excluded[i].Reason = filtered
		}
	}
	for i, ev := range rep.Events {
		if ev.Item != nil && older(ev.Item, ev.Exclusion) {
			rep.Events[i].Exclusion = filtered
		}
	}
}
