package chat

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
)

// HistoryOptions configure a [History].
type HistoryOptions struct {
	// Options say how turns become items, as for [Items].
	Options
	// Policy selects the context; nil means [Policy], with the slicer that
	// Eviction and OpenWithUser choose.
	Policy *cupel.Policy
	// Eviction says which turns are dropped when the conversation outgrows
	// the budget: EvictWindow (the default) or EvictCache. Only with the
	// default policy.
	Eviction Eviction
	// LowWater is the fraction of the budget EvictCache drops down to, in
	// (0, 1]; zero means DefaultLowWater.
	LowWater float64
	// OpenWithUser makes the kept turns after the pinned ones open with a
	// user turn, as Anthropic's API requires: when the stretch that fits
	// would open with an assistant turn or a tool exchange, EvictCache keeps
	// the user turn before it if the budget still holds, and otherwise
	// either eviction drops the turns before the next user turn (reported
	// Filtered by OpeningFilterName). Only with the default policy.
	OpenWithUser bool
	// OmittedNote, when turns are dropped, puts one short system turn after
	// the leading pinned ones (the system and developer turns that open the
	// conversation) that says how many: "[41 earlier messages omitted]",
	// counted from the report's excluded items. Its tokens are counted
	// inside the budget: Select reserves what the note costs with the
	// largest count it can give and selects under the rest. Off by default.
	OmittedNote bool
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
	cuts     bool                 // the slicer is a NewestFirstSlice: relabel what it cut
	planner  *planner             // the slicer, when Eviction or OpenWithUser chose it
	prev     []*cupel.ContextItem // the previous selection, in placed order
	prevNote string               // the previous selection's omitted note

	omittedNote bool

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
	if opts.PerTurnTokens < 0 || opts.PerNameTokens < 0 {
		return nil, fmt.Errorf("%w: chat.NewHistory: PerTurnTokens and PerNameTokens must be >= 0 (got %d, %d)", cupel.ErrInvalidArgument, opts.PerTurnTokens, opts.PerNameTokens)
	}
	if opts.LowWater == 0 {
		opts.LowWater = DefaultLowWater
	}
	if math.IsNaN(opts.LowWater) || opts.LowWater <= 0 || opts.LowWater > 1 {
		return nil, fmt.Errorf("%w: chat.NewHistory: LowWater must be in (0, 1] (got %v)", cupel.ErrInvalidArgument, opts.LowWater)
	}
	if opts.Eviction != EvictWindow && opts.Eviction != EvictCache {
		return nil, fmt.Errorf("%w: chat.NewHistory: unknown %v", cupel.ErrInvalidArgument, opts.Eviction)
	}
	policy := Policy()
	var pl *planner
	switch {
	case opts.Policy != nil:
		if opts.Eviction != EvictWindow || opts.OpenWithUser {
			return nil, fmt.Errorf("%w: chat.NewHistory: Eviction and OpenWithUser choose the default policy's slicer; they cannot be set with a Policy", cupel.ErrInvalidConfig)
		}
		policy = *opts.Policy
	case opts.Eviction == EvictCache || opts.OpenWithUser:
		pl = &planner{eviction: opts.Eviction, lowWater: opts.LowWater, openWithUser: opts.OpenWithUser}
		policy.Slicer = pl
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
	return &History{counter: counter, opts: opts.Options, start: start, pipeline: p, cuts: cuts, planner: pl, omittedNote: opts.OmittedNote}, nil
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
		n, err := countTurn(h.counter, t, h.opts.PerTurnTokens, h.opts.PerNameTokens, index)
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
	// PrefixTokens is how many leading tokens of this selection equal the
	// previous selection of the same History: the tokens of the leading
	// items the two share, in placed order (pinned turns first). It is what
	// a provider's prompt cache can serve again; zero on a History's first
	// selection. A tool exchange whose results arrived since counts as a
	// different item.
	PrefixTokens int
	// NoteTokens are the tokens of the omitted note in Turns
	// (HistoryOptions.OmittedNote), or zero when there is none; they are
	// not in Result.TotalTokens, and the note is in neither Result nor
	// Report.
	NoteTokens int
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
// Reasons)), in the report's excluded list and its events alike. Items that
// EvictCache dropped are reported Filtered by [EvictedFilterName], and those
// dropped for OpenWithUser Filtered by [OpeningFilterName].
func (h *History) Select(budget cupel.ContextBudget) (Selection, error) {
	res, rep, err := h.run(budget)
	if err != nil {
		return Selection{}, err
	}
	var note *Turn
	noteTokens := 0
	if h.omittedNote && omitted(rep) > 0 {
		// Make room for the note: reserve what it costs with the largest
		// count it can give, select again, and say what that left out.
		reserve, err := countTurn(h.counter, omittedNote(len(h.turns)), h.opts.PerTurnTokens, h.opts.PerNameTokens, len(h.turns))
		if err != nil {
			return Selection{}, err
		}
		smaller, err := RequestBudget(budget, reserve, 0)
		if err != nil {
			return Selection{}, err
		}
		if res, rep, err = h.run(smaller); err != nil {
			return Selection{}, err
		}
		t := omittedNote(omitted(rep))
		if noteTokens, err = countTurn(h.counter, t, h.opts.PerTurnTokens, h.opts.PerNameTokens, len(h.turns)); err != nil {
			return Selection{}, err
		}
		note = &t
	}
	turns, err := Turns(res.Items)
	if err != nil {
		return Selection{}, err
	}
	// pinned counts the leading pinned items: the system and developer
	// turns the note follows.
	pinned := 0
	for pinned < len(res.Items) && res.Items[pinned].Pinned() {
		pinned++
	}
	prefix := 0
	for i, it := range res.Items {
		if i >= len(h.prev) || h.prev[i] != it {
			break
		}
		prefix += it.Tokens()
	}
	if note != nil {
		// The note follows the pinned turns; it repeats if it says the same.
		turns = slices.Insert(turns, pinned, *note)
		switch {
		case h.prevNote != note.Content:
			prefix = min(prefix, pinnedTokens(res.Items[:pinned]))
		default:
			if prefix >= pinnedTokens(res.Items[:pinned]) {
				prefix += noteTokens
			}
		}
		h.prevNote = note.Content
	} else {
		h.prevNote = ""
	}
	h.prev = slices.Clone(res.Items)
	return Selection{Turns: turns, Result: res, Report: rep, PrefixTokens: prefix, NoteTokens: noteTokens}, nil
}

// run selects from the conversation under budget and relabels the report.
func (h *History) run(budget cupel.ContextBudget) (cupel.Result, *cupel.SelectionReport, error) {
	rep := new(cupel.SelectionReport)
	res, err := h.pipeline.Run(h.items, budget, cupel.WithReport(rep))
	if err != nil {
		return cupel.Result{}, nil, err
	}
	switch {
	case h.planner != nil:
		relabel(rep, h.planner.reason)
	case h.cuts:
		relabelCut(rep)
	}
	return res, rep, nil
}

// omitted counts the turns of the items the report excluded.
func omitted(rep *cupel.SelectionReport) int {
	n := 0
	for _, ex := range rep.Excluded {
		v, _ := ex.Item.MetadataValue(TurnsKey)
		ts, _ := v.([]Turn)
		n += len(ts)
	}
	return n
}

// omittedNote is the note that stands for n dropped turns.
func omittedNote(n int) Turn {
	s := "s"
	if n == 1 {
		s = ""
	}
	return Turn{Role: RoleSystem, Content: "[" + strconv.Itoa(n) + " earlier message" + s + " omitted]"}
}

func pinnedTokens(items []*cupel.ContextItem) int {
	n := 0
	for _, it := range items {
		n += it.Tokens()
	}
	return n
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

// reason returns the Filtered reason of an item the planner left out for a
// reason other than its size.
func (p *planner) reason(it *cupel.ContextItem, _ cupel.ExclusionReason) (cupel.ExclusionReason, bool) {
	switch p.last[it] {
	case dropCut:
		return cupel.Filtered(CutFilterName), true
	case dropEvicted:
		return cupel.Filtered(EvictedFilterName), true
	case dropOpening:
		return cupel.Filtered(OpeningFilterName), true
	}
	return cupel.ExclusionReason{}, false
}

// sliced reports whether r is a slicer's exclusion: BudgetExceeded, or
// PinnedOverride when the item would have fitted without the pinned items
// (ruling 2).
func sliced(r cupel.ExclusionReason) bool {
	return r.Variant == cupel.ExclusionBudgetExceeded || r.Variant == cupel.ExclusionPinnedOverride
}

// relabel gives every item the slicer left out the reason to(item, reason)
// returns, where it returns true, in the excluded list and the events.
func relabel(rep *cupel.SelectionReport, to func(*cupel.ContextItem, cupel.ExclusionReason) (cupel.ExclusionReason, bool)) {
	for i, ex := range rep.Excluded {
		if !sliced(ex.Reason) {
			continue
		}
		if r, ok := to(ex.Item, ex.Reason); ok {
			rep.Excluded[i].Reason = r
		}
	}
	for i, ev := range rep.Events {
		if ev.Item == nil || !sliced(ev.Exclusion) {
			continue
		}
		if r, ok := to(ev.Item, ev.Exclusion); ok {
			rep.Events[i].Exclusion = r
		}
	}
}

// relabelCut gives the items older than the newest item a NewestFirstSlice
// left out for lack of budget the reason Filtered(CutFilterName).
func relabelCut(rep *cupel.SelectionReport) {
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
	filtered := cupel.Filtered(CutFilterName)
	relabel(rep, func(it *cupel.ContextItem, _ cupel.ExclusionReason) (cupel.ExclusionReason, bool) {
		ts, ok := it.Timestamp()
		return filtered, !ok || ts.Before(cut)
	})
}
