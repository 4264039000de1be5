package cupel_test

import (
	"errors"

	"github.com/cupel-go/go-cupel/cupel"
)

// Helpers of the slicer and placer specs; prefixed "sl" to stay clear of the
// other test files' helpers.

func slItem(content string, tokens int) *cupel.ContextItem {
	return cupel.MustItem(cupel.ItemSpec{Content: content, Tokens: tokens})
}

func slBudget(maxTokens, target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: maxTokens, TargetTokens: target})
	if err != nil {
		panic(err)
	}
	return b
}

func slTarget(target int) cupel.ContextBudget { return slBudget(target, target) }

// slScoredList builds ScoredItems from alternating items and scores.
func slField(err error) string {
	var ve *cupel.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return ""
}
