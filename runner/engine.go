package runner

import "context"

// engine is go-cupel behind the Implementation interface. It is the
// single place that knows the engine's API.
type engine struct{}

// Engine returns go-cupel (package github.com/cupel-go/go-cupel/cupel) as
// an in-process Implementation.
func Engine() Implementation { return engine{} }

// Hello identifies go-cupel.
func (engine) Hello(context.Context) (Info, error) {
	return Info{Name: "go-cupel", Version: Version, Language: "go"}, nil
}

// Run runs one case.
func (engine) Run(_ context.Context, req Request) (Result, error) {
	return Result{Status: ResultUnsupported, Reason: "the engine adapter is not written yet"}, nil
}
