package cupelopenai_test

import (
	"log"

	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupelopenai"
	"github.com/cupel-go/go-cupel/matchers"
)

// An application's spec checks that what Trim keeps is a request the
// provider accepts (matchers.BeAcceptedBy's example; compiled, not run).
func ExampleValidate_beAcceptedBy() {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is the weather in Paris?")}
	counter := cupel.TokenCounterFunc(func(s string) (int, error) { return (len(s) + 3) / 4, nil })
	window, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: 1000, TargetTokens: 1000})
	if err != nil {
		log.Fatal(err)
	}
	opts := cupelopenai.TrimOptions{}
	kept, _, err := cupelopenai.Trim(msgs, counter, window, opts)
	Expect(kept).To(matchers.BeAcceptedBy(cupelopenai.Validate))
	Expect(err).NotTo(HaveOccurred())
}
