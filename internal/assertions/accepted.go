package assertions

import "fmt"

// Accepted evaluates the acceptance check shared by matchers.BeAcceptedBy
// and cupeltest.ShouldBeAccepted: validate (an SDK adapter's Validate)
// judges the conversation. It returns the failure message, which names
// helper (the one that checked), when validate refuses it, or "" when it
// accepts it.
func Accepted[T any](helper string, conversation T, validate func(T) error) string {
	if validate == nil {
		return helper + " failed: the validator is nil."
	}
	if err := validate(conversation); err != nil {
		return fmt.Sprintf("%s failed: the provider would refuse the conversation: %v.", helper, err)
	}
	return ""
}
