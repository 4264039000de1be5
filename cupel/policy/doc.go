// Package policy is go-cupel's configuration: a declarative description of
// a [cupel.Policy] (a [Spec]), read from a TOML or JSON policy file, built
// into the Policy that [cupel.NewPipeline] takes, and written back.
//
//   - [Decode] reads a policy file, TOML or JSON by its extension, and
//     checks it; every error names the file ([*FileError]).
//   - [Spec.Build] returns the cupel.Policy; decay scorers without a
//     reference_time read the clock of [WithClock].
//   - [Of] describes a Policy of built-in components as a Spec, so that a
//     spec round-trips losslessly; encoding/json and
//     github.com/BurntSushi/toml write it.
//   - [Preset] returns the spec of a built-in preset; [PresetNames] lists
//     them.
//   - [ScorerTypes], [SlicerTypes] and [PlacerTypes] are the component
//     names a spec accepts.
//
// Package cupel keeps the engine: the runtime Policy, the components and
// the pipeline. This package builds the components with their exported
// constructors and reads them back with their exported accessors; it
// adds nothing a Policy written by hand could not have.
package policy
