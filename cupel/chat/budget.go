package chat

import (
	"fmt"

	"github.com/cupel-go/go-cupel/cupel"
)

// RequestBudget returns the budget left for the turns of a request whose
// model window is window, when the request also spends fixed tokens outside
// its turns (tool definitions, the tokens that prime the reply) and reserves
// reply tokens for the answer (max_tokens, max_completion_tokens). The fixed
// tokens come off MaxTokens and TargetTokens, and OutputReserve becomes the
// larger of window's and reply, so the pipeline's effective budget is at most
// MaxTokens - fixed - reply, less the pinned turns (spec chapter 11 (Stage
// 5: Slice)). The margin and reserved slots are kept.
//
// fixed or reply negative, or together more than window's MaxTokens, give
// an error wrapping [cupel.ErrInvalidBudget].
func RequestBudget(window cupel.ContextBudget, fixed, reply int) (cupel.ContextBudget, error) {
	spec := window.Spec()
	if fixed < 0 || reply < 0 || fixed > spec.MaxTokens || reply > spec.MaxTokens-fixed {
		return cupel.ContextBudget{}, fmt.Errorf("%w: chat.RequestBudget: %d tokens of tools and framing and a reply reserve of %d do not fit a window of %d", cupel.ErrInvalidBudget, fixed, reply, spec.MaxTokens)
	}
	spec.MaxTokens -= fixed
	spec.TargetTokens = max(0, spec.TargetTokens-fixed)
	spec.OutputReserve = min(max(spec.OutputReserve, reply), spec.MaxTokens)
	return cupel.NewBudget(spec)
}

// Trimmed is what a provider adapter's Trim (the cupelopenai and
// cupelanthropic modules) returns beside the messages it kept: the
// selection report, and what the request's input is estimated to cost, in
// three parts whose sum [Trimmed.Estimated] goes into a [Usage] for
// [Calibrate].
type Trimmed struct {
	// SelectionReport explains every message kept or dropped.
	*cupel.SelectionReport
	// TurnTokens are the kept turns' tokens as counted, their framing
	// included: the selection's Result.TotalTokens.
	TurnTokens int
	// NoteTokens are the omitted note's tokens (HistoryOptions.OmittedNote;
	// Selection.NoteTokens), zero without a note.
	NoteTokens int
	// FixedTokens are what the request spends outside its turns, as the
	// adapter took it out of the window ([RequestBudget]'s fixed): the tool
	// definitions, and the tokens that prime the reply.
	FixedTokens int
}

// Estimated is the request's input tokens as estimated: TurnTokens +
// NoteTokens + FixedTokens, the Usage.Estimated to pair with what the
// provider billed.
func (t *Trimmed) Estimated() int { return t.TurnTokens + t.NoteTokens + t.FixedTokens }

// Trimmed is s as a provider adapter's Trim reports it, for a request that
// spends fixed tokens outside its turns.
func (s Selection) Trimmed(fixed int) *Trimmed {
	return &Trimmed{SelectionReport: s.Report, TurnTokens: s.Result.TotalTokens, NoteTokens: s.NoteTokens, FixedTokens: fixed}
}
