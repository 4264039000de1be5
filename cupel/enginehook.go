package cupel

import "github.com/cupel-go/go-cupel/internal/enginehook"

// The module's other packages (cupel/policy) build validation errors,
// check components for nil and compare names the way this package does.
func init() {
	enginehook.InvalidConfig = invalidConfig
	enginehook.InvalidArgument = invalidArgument
	enginehook.IsNil = isNil
	enginehook.EqualASCIIFold = asciiEqualFold
}
