package cupel

import (
	"context"

	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// The module's other packages (cupel/policy, cupel/slicer) build validation
// and cancellation errors, check components for nil, compare names and
// read run options the way this package does.
func init() {
	enginehook.InvalidConfig = invalidConfig
	enginehook.InvalidArgument = invalidArgument
	enginehook.IsNil = isNil
	enginehook.EqualASCIIFold = asciiEqualFold
	enginehook.SliceCanceled = sliceCanceled
	enginehook.RunOptionSetting = runOptionSetting
}

// sliceCanceled is the engine's cancellation error for the Slice stage when
// ctx is done, else nil.
func sliceCanceled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	select {
	case <-ctx.Done(): // a nil Done channel is never ready
		return canceledError(ctx, StageSlice)
	default:
		return nil
	}
}

// runOptionSetting names the function that made opt (a RunOption) and
// returns the number it carries.
func runOptionSetting(opt any) (string, int) {
	o, _ := opt.(RunOption)
	return o.kind.name(), o.n
}
