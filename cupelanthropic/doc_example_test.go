package cupelanthropic_test

import (
	"log"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelanthropic"
	"github.com/cupel-go/go-cupel/cupeltest"
)

// An application's test checks that what Trim keeps is a request the
// provider accepts (cupeltest.ShouldBeAccepted's example; compiled, not
// run: t is the test's).
func ExampleValidate_shouldBeAccepted() {
	var t *testing.T
	system := []anthropic.TextBlockParam{{Text: "You are a weather bot."}}
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("What is the weather in Paris?"))}
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })
	window, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
	if err != nil {
		log.Fatal(err)
	}
	_, kept, _, err := cupelanthropic.Trim(system, msgs, counter, window, cupelanthropic.TrimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cupeltest.ShouldBeAccepted(t, kept, cupelanthropic.Validate)
}
