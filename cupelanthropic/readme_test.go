package cupelanthropic_test

import (
	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelanthropic"
)

// The Go of the repository's README: the block there is a copy of this
// function's body, checked by go test ./internal/doccheck in the main
// module, and compiled here.
var _ = trimParams

func trimParams(params *anthropic.MessageNewParams, counter cupel.TokenCounter, budget cupel.ContextBudget) (*chat.Trimmed, error) {
	system, msgs, report, err := cupelanthropic.Trim(params.System, params.Messages, counter, budget, cupelanthropic.TrimOptions{})
	if err != nil {
		return nil, err
	}
	params.System, params.Messages = system, msgs
	return report, nil
}
