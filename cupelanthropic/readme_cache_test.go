package cupelanthropic_test

import (
	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelanthropic"
)

// The Go of the README's cache-friendly trim: the block there is a copy of
// this function's body (marker cupelanthropic/readme_cache_test.go#trimCached.body),
// compiled here; ExampleTrim_cache runs the same call.
var _ = trimCached

func trimCached(params *anthropic.MessageNewParams, counter cupel.TokenCounter, window cupel.ContextBudget) (*chat.Trimmed, error) {
	system, msgs, report, err := cupelanthropic.Trim(params.System, params.Messages, counter, window, cupelanthropic.TrimOptions{
		HistoryOptions:  chat.HistoryOptions{Eviction: chat.EvictCache}, // drop to 65% of the budget, then keep the prefix
		Tools:           params.Tools,                                   // counted, taken out of the window
		ReplyReserve:    int(params.MaxTokens),                          // max_tokens, taken out too
		CacheBreakpoint: true,                                           // cache_control at the end: the next request reads it
	})
	if err != nil {
		return nil, err
	}
	params.System, params.Messages = system, msgs // send with client.Messages.New(ctx, params)
	return report, nil
}
