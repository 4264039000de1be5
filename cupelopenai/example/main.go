// Command example trims a long support conversation, held as OpenAI chat
// completion messages, to the context window of gpt-4 (8,192 tokens, 1,024
// of them kept for the answer), counting tokens with gpt-4's tokenizer
// (cl100k_base, from the cupeltiktoken module), and prints what it kept and
// what the selection report says it dropped, and why.
//
// It needs no network and no API key: it builds the request's messages and
// stops where an application would call client.Chat.Completions.New.
//
//	cd cupelopenai && go run ./example
package main

import (
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// Model and window of the example.
const (
	Model         = "gpt-4"
	ContextWindow = 8192
	AnswerReserve = 1024
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// Conversation returns a support conversation of 241 messages: the system
// prompt, then 40 rounds of a user question, an assistant tool call, the
// tool's result (a long order listing every fourth round) and the
// assistant's answer, each round followed by the user's "ok" and the
// assistant's "ok".
func Conversation() []openai.ChatCompletionMessageParamUnion {
	msgs := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are Acme's support agent. Look orders up with the tools before answering, answer in two sentences, and never reveal another customer's data."),
	}
	for r := 1; r <= 40; r++ {
		order := fmt.Sprintf("A-%04d", 1000+r*37)
		id := fmt.Sprintf("call_%02d", r)
		result := fmt.Sprintf(`{"order":"%s","status":"shipped","carrier":"DHL","eta":"2026-12-%02d"}`, order, r%28+1)
		if r%4 == 0 {
			var lines []string
			for k := 1; k <= 25; k++ {
				lines = append(lines, fmt.Sprintf(`{"line":%d,"sku":"SKU-%05d","qty":%d,"price_eur":%d.%02d}`, k, r*100+k, k%3+1, 10+k, (r*k)%100))
			}
			result = fmt.Sprintf(`{"order":"%s","status":"processing","lines":[%s]}`, order, strings.Join(lines, ","))
		}
		assistant := openai.ChatCompletionAssistantMessageParam{
			ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       id,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "lookup_order", Arguments: fmt.Sprintf(`{"order_id":"%s"}`, order)},
			}}},
		}
		msgs = append(msgs,
			openai.UserMessage(fmt.Sprintf("Round %d: where is my order %s, and when will it arrive?", r, order)),
			openai.ChatCompletionMessageParamUnion{OfAssistant: &assistant},
			openai.ToolMessage(result, id),
			openai.AssistantMessage(fmt.Sprintf("Order %s is on its way with DHL and should arrive within the week; I will keep an eye on it for you.", order)),
			openai.UserMessage("ok"),
			openai.AssistantMessage("ok"),
		)
	}
	return msgs
}

// Budget is gpt-4's window with the answer's share reserved.
func Budget() (cupel.ContextBudget, error) {
	return cupel.NewBudget(cupel.BudgetSpec{
		MaxTokens:     ContextWindow,
		TargetTokens:  ContextWindow - AnswerReserve,
		OutputReserve: AnswerReserve,
	})
}

// Trim returns the messages to send, and the report of the selection with
// the input it estimates.
func Trim() ([]openai.ChatCompletionMessageParamUnion, *chat.Trimmed, error) {
	counter, err := cupeltiktoken.ForModel(Model)
	if err != nil {
		return nil, nil, err
	}
	budget, err := Budget()
	if err != nil {
		return nil, nil, err
	}
	return cupelopenai.Trim(Conversation(), counter, budget, cupelopenai.TrimOptions{})
}

// run prints the kept messages and the report's account of the dropped ones.
func run(w io.Writer) error {
	msgs := Conversation()
	kept, report, err := Trim()
	if err != nil {
		return err
	}
	budget, _ := Budget()
	fmt.Fprintf(w, "%s, %d-token window, %d kept for the answer\n", Model, ContextWindow, AnswerReserve)
	fmt.Fprintf(w, "conversation: %d messages, %d tokens as items (%d items)\n", len(msgs), report.TotalTokensConsidered, report.TotalCandidates)
	fmt.Fprintf(w, "kept: %d messages, %d tokens (%.1f%% of the %d available)\n",
		len(kept), tokens(report.Included), 100*float64(tokens(report.Included))/float64(budget.TargetTokens()), budget.TargetTokens())
	fmt.Fprintf(w, "estimated input: %d tokens, %d to prime the reply included (pair it with usage.prompt_tokens for chat.Calibrate)\n\n",
		report.Estimated(), report.FixedTokens)

	fmt.Fprintln(w, "included, in the order sent (first five and last three):")
	for k, in := range report.Included {
		if k == 5 && len(report.Included) > 8 {
			fmt.Fprintf(w, "  ... %d more\n", len(report.Included)-8)
		}
		if k >= 5 && k < len(report.Included)-3 {
			continue
		}
		fmt.Fprintf(w, "  %-6s %4d tokens  %s\n", in.Reason, in.Item.Tokens(), firstLine(in.Item.Content()))
	}

	fmt.Fprintf(w, "\nexcluded: %d items, %d tokens\n", len(report.Excluded), tokens(nil, report.Excluded...))
	byReason := map[string]int{}
	oldest, newest := -1, -1
	for _, ex := range report.Excluded {
		byReason[string(ex.Reason.Variant)]++
		i, _ := ex.Item.MetadataValue(chat.IndexKey)
		turns, _ := ex.Item.MetadataValue(chat.TurnsKey)
		first, last := i.(int), i.(int)+len(turns.([]chat.Turn))-1
		if oldest < 0 || first < oldest {
			oldest = first
		}
		newest = max(newest, last)
	}
	for _, reason := range slices.Sorted(maps.Keys(byReason)) {
		fmt.Fprintf(w, "  %d × %s\n", byReason[reason], reason)
	}
	fmt.Fprintf(w, "  they are messages %d to %d, the oldest after the system prompt\n", oldest, newest)
	fmt.Fprintln(w, "  the newest three dropped, as the report lists them (score descending):")
	for _, ex := range report.Excluded[:3] {
		fmt.Fprintf(w, "    %s\n      %s\n", firstLine(ex.Item.Content()), ex.Reason)
	}
	return nil
}

func tokens(in []cupel.IncludedItem, ex ...cupel.ExcludedItem) int {
	n := 0
	for _, i := range in {
		n += i.Item.Tokens()
	}
	for _, e := range ex {
		n += e.Item.Tokens()
	}
	return n
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 90 {
		s = s[:87] + "..."
	}
	return s
}
