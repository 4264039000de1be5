package cupelopenai

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
)

// Framing that OpenAI's chat format adds to a request, per OpenAI's
// published counting recipe (OpenAI Cookbook, "How to count tokens with
// tiktoken", which reports exact matches with the API's usage.prompt_tokens
// for plain-text messages of gpt-3.5-turbo, gpt-4, gpt-4o and gpt-4o-mini).
const (
	// TokensPerMessage is what every message costs besides the tokens of
	// its role, content and name.
	TokensPerMessage = 3
	// TokensPerName is what a message's name field costs besides its text.
	TokensPerName = 1
	// TokensReplyPrimer is what every request spends to prime the reply.
	TokensReplyPrimer = 3
)

// ToolCosts are the constants of the cookbook's approximation of what a
// request's tool definitions cost (see [ToolTokens]). OpenAI does not
// publish how it renders tools to the model; the cookbook fitted these
// constants on its examples.
type ToolCosts struct {
	FuncInit, PropInit, PropKey, EnumInit, EnumItem, FuncEnd int
}

// The cookbook's constants, by model family.
var (
	// ToolCostsGPT4o: gpt-4o and gpt-4o-mini (and, by the same o200k_base
	// encoding, the newer models, unchecked by the cookbook).
	ToolCostsGPT4o = ToolCosts{FuncInit: 7, PropInit: 3, PropKey: 3, EnumInit: -3, EnumItem: 3, FuncEnd: 12}
	// ToolCostsGPT4: gpt-4 and gpt-3.5-turbo.
	ToolCostsGPT4 = ToolCosts{FuncInit: 10, PropInit: 3, PropKey: 3, EnumInit: -3, EnumItem: 3, FuncEnd: 12}
)

// ToolTokens approximates the tokens that tools cost in a request, by the
// OpenAI cookbook's recipe: for each function, FuncInit plus the tokens of
// "name:description" (one trailing period dropped); if it has properties,
// PropInit and for each property PropKey, the tokens of
// "key:type:description" (one trailing period dropped) and, for an enum,
// EnumInit plus EnumItem and the value's tokens per value; and FuncEnd once
// for the tools. No tools cost nothing.
//
// It is an approximation: OpenAI does not publish the format, and the
// recipe reads only names, descriptions, types and enums of top-level
// properties. Nested objects, arrays' items, required lists, defaults and
// custom (non-function) tools are not counted, so a schema rich in those
// costs more than ToolTokens says: keep a margin. On the cookbook's example
// (one function, two properties, one enum) it matches the API exactly.
// Custom tools are counted by their name and description with FuncInit.
func ToolTokens(tools []openai.ChatCompletionToolUnionParam, counter cupel.TokenCounter, costs ToolCosts) (int, error) {
	if len(tools) == 0 {
		return 0, nil
	}
	n := 0
	count := func(s string) error {
		c, err := counter.Count(s)
		if err != nil {
			return fmt.Errorf("cupelopenai: counting tools: %w", err)
		}
		n += c
		return nil
	}
	for _, t := range tools {
		n += costs.FuncInit
		var name, desc string
		var params map[string]any
		switch {
		case t.OfFunction != nil:
			f := t.OfFunction.Function
			name, desc, params = f.Name, f.Description.Value, f.Parameters
		case t.OfCustom != nil:
			name, desc = t.OfCustom.Custom.Name, t.OfCustom.Custom.Description.Value
		}
		if err := count(name + ":" + strings.TrimSuffix(desc, ".")); err != nil {
			return 0, err
		}
		props, _ := params["properties"].(map[string]any)
		if len(props) == 0 {
			continue
		}
		n += costs.PropInit
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n += costs.PropKey
			p, _ := props[k].(map[string]any)
			typ, _ := p["type"].(string)
			pdesc, _ := p["description"].(string)
			if enum, ok := p["enum"].([]any); ok {
				n += costs.EnumInit
				for _, v := range enum {
					n += costs.EnumItem
					if err := count(fmt.Sprint(v)); err != nil {
						return 0, err
					}
				}
			} else if enum, ok := p["enum"].([]string); ok {
				n += costs.EnumInit
				for _, v := range enum {
					n += costs.EnumItem
					if err := count(v); err != nil {
						return 0, err
					}
				}
			}
			if err := count(k + ":" + typ + ":" + strings.TrimSuffix(pdesc, ".")); err != nil {
				return 0, err
			}
		}
	}
	return n + costs.FuncEnd, nil
}
