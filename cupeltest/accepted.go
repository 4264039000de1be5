package cupeltest

import "github.com/cupel-go/go-cupel/internal/assertions"

// ShouldBeAccepted checks that validate, an SDK adapter's Validate,
// accepts conversation, and reports the failure to t otherwise with the
// validator's error, which names the message and the rule broken:
//
//	_, kept, _, err := cupelanthropic.Trim(system, msgs, counter, window, cupelanthropic.TrimOptions{})
//	if err != nil {
//		t.Fatal(err)
//	}
//	cupeltest.ShouldBeAccepted(t, kept, cupelanthropic.Validate)
//
// (cupelanthropic's ExampleShouldBeAccepted compiles it.) It takes the validator rather than knowing the SDKs, so this package
// imports none of them. It returns whether the conversation was accepted.
func ShouldBeAccepted[T any](t TB, conversation T, validate func(T) error) bool {
	t.Helper()
	if msg := assertions.Accepted("ShouldBeAccepted", conversation, validate); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	return true
}
