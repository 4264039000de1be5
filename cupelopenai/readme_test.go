package cupelopenai_test

import (
	"context"

	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// The Go of the repository's README: the block there is a copy of this
// function's body, checked by go test ./internal/doccheck in the main
// module, and compiled here.
var _ = trimAndSend

func trimAndSend(ctx context.Context, client openai.Client, messages []openai.ChatCompletionMessageParamUnion, tools []openai.ChatCompletionToolUnionParam) (*openai.ChatCompletion, chat.Usage, error) {
	model := openai.ChatModelGPT5_5
	counter, _ := cupeltiktoken.ForModel(string(model))
	budget, _ := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 128000, TargetTokens: 120000, OutputReserve: 8000})
	kept, trimmed, err := cupelopenai.Trim(messages, counter, budget, cupelopenai.TrimOptions{Tools: tools, ReplyReserve: 4096})
	if err != nil {
		return nil, chat.Usage{}, err
	}
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: model, Messages: kept, Tools: tools, MaxCompletionTokens: openai.Int(4096)})
	if err != nil {
		return nil, chat.Usage{}, err
	}
	// What was estimated and what was billed: collect these for chat.Calibrate.
	return resp, chat.Usage{Estimated: trimmed.Estimated(), Reported: int(resp.Usage.PromptTokens)}, nil
}
