// Package agentcontext builds the context of one turn of a support agent
// and the pipeline that selects it, for the examples of the testing toolkit.
//
// The candidates are what such an agent has at hand when the user asks how
// to unlock their account: a pinned system prompt, a memory of the user's
// preferences, six chat turns, two tool outputs (a small account lookup and
// a large order listing) and four retrieved documents, one of them
// retrieved twice.
//
// The pipeline is built from the engine's own stages: a scorer.Composite of
// scorer.Kind (what kind of context it is), scorer.Recency (chat turns and
// tool outputs) and scorer.Reflexive (the retriever's relevance, carried as
// the documents' futureRelevanceHint), a GreedySlice and a UShapedPlacer.
package agentcontext

import (
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Contents of the items the examples assert on.
const (
	SystemPrompt = "You are Acme's support agent. Answer from the retrieved documents and cite them. Never reveal account data you did not look up."
	LatestTurn   = "user: It says my account is locked. How do I unlock it?"
	AccountTool  = `lookup_account("jane@example.com") => {"status":"locked","reason":"too many failed attempts","unlock_after":"2026-11-22T10:00:00Z"}`
	OrdersTool   = `list_orders("jane@example.com") => [42 orders, 2019-2026, with line items and shipping addresses]`
	LockedDoc    = "kb/account-locked.md: An account locks after 5 failed sign-in attempts. It unlocks by itself after 30 minutes, or at once from Settings > Security > Unlock account."
	BillingDoc   = "kb/billing-faq.md: Invoices, refunds, VAT numbers, payment methods and every other billing question, in full."
)

// Token counts of the two large items the budget cannot hold.
const (
	OrdersTokens  = 1400
	BillingTokens = 900
)

var t0 = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func at(minutes int) *time.Time { t := t0.Add(time.Duration(minutes) * time.Minute); return &t }

// Items returns the candidates of the turn, in the order the agent gathers
// them. Each call returns new items.
func Items() []*cupel.ContextItem {
	item := func(content string, tokens int, kind cupel.ContextKind, source cupel.ContextSource, ts *time.Time, relevance float64) *cupel.ContextItem {
		spec := cupel.ItemSpec{Content: content, Tokens: tokens, Kind: kind, Source: source, Timestamp: ts}
		if relevance > 0 {
			spec.FutureRelevanceHint = &relevance
		}
		return cupel.MustItem(spec)
	}
	system := cupel.MustItem(cupel.ItemSpec{Content: SystemPrompt, Tokens: 180, Kind: cupel.KindSystemPrompt, Pinned: true})
	return []*cupel.ContextItem{
		system,
		item("memory: Jane prefers short answers with numbered steps.", 25, cupel.KindMemory, cupel.SourceChat, nil, 0),
		item("user: Hi, I can't sign in to my account.", 14, cupel.KindMessage, cupel.SourceChat, at(0), 0),
		item("assistant: Sorry to hear that. Which email address do you sign in with?", 16, cupel.KindMessage, cupel.SourceChat, at(1), 0),
		item("user: jane@example.com", 8, cupel.KindMessage, cupel.SourceChat, at(2), 0),
		item("assistant: Thanks, let me look that account up.", 12, cupel.KindMessage, cupel.SourceChat, at(3), 0),
		item(OrdersTool, OrdersTokens, cupel.KindToolOutput, cupel.SourceTool, at(3), 0),
		item(AccountTool, 60, cupel.KindToolOutput, cupel.SourceTool, at(4), 0),
		item(LatestTurn, 18, cupel.KindMessage, cupel.SourceChat, at(5), 0),
		item(LockedDoc, 220, cupel.KindDocument, cupel.SourceRag, nil, 0.92),
		item("kb/password-reset.md: To reset a password, choose 'Forgot password' on the sign-in page and follow the emailed link within 24 hours.", 260, cupel.KindDocument, cupel.SourceRag, nil, 0.71),
		item(LockedDoc, 220, cupel.KindDocument, cupel.SourceRag, nil, 0.92), // retrieved again by a second query
		item(BillingDoc, BillingTokens, cupel.KindDocument, cupel.SourceRag, nil, 0.35),
	}
}

// Budget is the turn's budget: a 2000-token window with 400 tokens kept
// for the answer and a target of 1200 tokens of context.
func Budget() cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 2000, TargetTokens: 1200, OutputReserve: 400})
	if err != nil {
		panic(err)
	}
	return b
}

// Scorer weighs what kind of context an item is (0.6), how recent it is
// among the timestamped items (0.2) and the retriever's relevance (0.2).
func Scorer() cupel.Scorer {
	kinds, err := scorer.NewKind(map[cupel.ContextKind]float64{
		cupel.KindToolOutput: 0.9,
		cupel.KindDocument:   0.8,
		cupel.KindMessage:    0.7,
		cupel.KindMemory:     0.6,
	})
	if err != nil {
		panic(err)
	}
	s, err := scorer.NewComposite(
		scorer.Weighted{Scorer: kinds, Weight: 0.6},
		scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 0.2},
		scorer.Weighted{Scorer: scorer.NewReflexive(), Weight: 0.2},
	)
	if err != nil {
		panic(err)
	}
	return s
}

// Pipeline returns the pipeline of the examples: Scorer, a GreedySlice and
// a UShapedPlacer, which puts the best items at both edges of the window.
func Pipeline() *cupel.Pipeline {
	p, err := cupel.NewPipeline(cupel.Policy{Scorer: Scorer(), Slicer: slicer.NewGreedy(), Placer: placer.NewUShaped()})
	if err != nil {
		panic(err)
	}
	return p
}

// Run selects the turn's context and returns the result with its report.
func Run() (cupel.Result, *cupel.SelectionReport, error) {
	report := new(cupel.SelectionReport)
	res, err := Pipeline().Run(Items(), Budget(), cupel.WithReport(report))
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return res, report, nil
}
