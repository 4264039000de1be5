// Package enginehook lets the module's packages beside cupel build the
// values cupel keeps unexported parts of: package cupel sets these
// functions when it is initialised, so that any package importing cupel
// finds them set.
package enginehook

import "context"

// InvalidConfig returns a *cupel.ValidationError wrapping
// cupel.ErrInvalidConfig.
var InvalidConfig func(typ, field string, value any, reason string) error

// InvalidArgument returns a *cupel.ValidationError wrapping
// cupel.ErrInvalidArgument.
var InvalidArgument func(typ, field string, value any, reason string) error

// IsNil reports whether v is nil or an interface holding a nil pointer,
// map, slice or func, whose methods could not be called safely.
var IsNil func(v any) bool

// EqualASCIIFold reports whether a and b are equal up to the case of ASCII
// letters only (strings.EqualFold also folds letters such as the Kelvin
// sign into ASCII ones).
var EqualASCIIFold func(a, b string) bool

// SliceCanceled returns a *cupel.CanceledError for the Slice stage when ctx
// is done, and nil when it is not (a nil ctx never is): the error a run
// stopped in its Slice stage returns, with the context's cause, so that a
// slicer of cupel/slicer stops with exactly the engine's error.
var SliceCanceled func(ctx context.Context) error

// RunOptionSetting returns the name of the function that made opt, a
// cupel.RunOption ("WithFillTolerance"; "" for the zero option), and the
// number it carries, so that a constructor taking run options (the stream
// slicer's) can read the one it accepts.
var RunOptionSetting func(opt any) (name string, n int)
