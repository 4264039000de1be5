package cupeleino_test

import (
	"context"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/flow/agent/react"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeleino"
)

// The Go of the repository's README: the block there is a copy of this
// function's body, checked by go test ./internal/doccheck in the main
// module, and compiled here.
var _ = agentConfig

func agentConfig(chatModel model.ToolCallingChatModel, counter cupel.TokenCounter, budget cupel.ContextBudget) *react.AgentConfig {
	cfg := &react.AgentConfig{
		ToolCallingModel: chatModel,
		MessageRewriter: cupeleino.Rewriter(counter, budget, cupeleino.RewriterOptions{
			OnReport: func(ctx context.Context, r *cupel.SelectionReport) { /* log what was dropped */ },
		}),
	}
	return cfg
}
