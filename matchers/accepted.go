package matchers

import (
	"fmt"

	"github.com/onsi/gomega/format"

	"github.com/cupel-go/go-cupel/internal/assertions"
)

// BeAcceptedBy succeeds when validate accepts the conversation: an SDK
// adapter's Validate, so that an application test can say that what it
// sends is a request the provider accepts:
//
//	kept, _, err := cupelopenai.Trim(msgs, counter, window, opts)
//	Expect(kept).To(matchers.BeAcceptedBy(cupelopenai.Validate))
//
// (cupelopenai's ExampleValidate_beAcceptedBy compiles it), or for
// Anthropic's alternation rule
// BeAcceptedBy(cupelanthropic.ValidateOptions{Alternate: true}.Validate).
// The matcher takes the validator rather than knowing the SDKs, so this
// package imports none of them: T is the adapter's message list type. Its
// failure message carries the validator's error, which names the message
// and the rule broken. Match returns an error when actual is not a T.
func BeAcceptedBy[T any](validate func(T) error) *BeAcceptedByMatcher[T] {
	return &BeAcceptedByMatcher[T]{validate: validate}
}

// BeAcceptedByMatcher is the matcher [BeAcceptedBy] returns.
type BeAcceptedByMatcher[T any] struct {
	validate func(T) error
}

func (m *BeAcceptedByMatcher[T]) conversation(actual any) (T, error) {
	c, ok := actual.(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("BeAcceptedBy expects a %T, got:\n%s", zero, format.Object(actual, 1))
	}
	return c, nil
}

// Match reports whether the validator accepts actual.
func (m *BeAcceptedByMatcher[T]) Match(actual any) (bool, error) {
	c, err := m.conversation(actual)
	if err != nil {
		return false, err
	}
	return assertions.Accepted("BeAcceptedBy", c, m.validate) == "", nil
}

// FailureMessage says why the validator refused actual.
func (m *BeAcceptedByMatcher[T]) FailureMessage(actual any) string {
	c, err := m.conversation(actual)
	if err != nil {
		return err.Error()
	}
	return assertions.Accepted("BeAcceptedBy", c, m.validate)
}

// NegatedFailureMessage says the conversation was expected to be refused.
func (m *BeAcceptedByMatcher[T]) NegatedFailureMessage(any) string {
	return "Expected the provider to refuse the conversation, but the validator accepted it."
}

// String renders the matcher as its call.
func (m *BeAcceptedByMatcher[T]) String() string { return "BeAcceptedBy(<validator>)" }

// GomegaString is String.
func (m *BeAcceptedByMatcher[T]) GomegaString() string { return m.String() }
