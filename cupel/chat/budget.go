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
