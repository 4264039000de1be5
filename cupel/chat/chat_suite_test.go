package chat_test

import (
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
)

func TestChat(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "chat")
}

// wordCounter counts white-space separated words, a stand-in tokenizer, and
// how often it was called.
type wordCounter struct{ calls atomic.Int64 }

func (w *wordCounter) Count(s string) (int, error) {
	w.calls.Add(1)
	return len(strings.Fields(s)), nil
}

var _ cupel.TokenCounter = (*wordCounter)(nil)

func budget(target int) cupel.ContextBudget {
	b, err := cupel.NewBudget(cupel.BudgetSpec{MaxTokens: target, TargetTokens: target})
	Expect(err).NotTo(HaveOccurred())
	return b
}
