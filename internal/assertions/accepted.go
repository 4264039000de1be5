package assertions

import "fmt"

// Accepted evaluates the acceptance check shared by matchers.BeAcceptedBy
// and cupeltest.ShouldBeAccepted: validate (an SDK adapter's Validate)
// judges the conversation. It returns the failure message when validate
// refuses it, or "" when it accepts it.
func Accepted[T any](conversation T, validate func(T) error) string {
	if validate == nil {
		return "BeAcceptedBy failed: the validator is nil."
	}
	if err := validate(conversation); err != nil {
		return fmt.Sprintf("BeAcceptedBy failed: the provider would refuse the conversation: %v.", err)
	}
	return ""
}
