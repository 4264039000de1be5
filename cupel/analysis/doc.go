// Package analysis holds the analyses around a cupel pipeline: policy
// sensitivity (spec chapter 41 (Policy Sensitivity)) and budget simulation
// (spec chapter 40 (Budget Simulation)). It sits beside package cupel as
// cmpopts sits beside cmp: everything here is built on cupel's exported
// API, a run with [cupel.WithReport], and none of it changes how a pipeline
// selects.
//
// The spec's names, and the Go names they have here:
//
//	spec (.NET)                            package analysis
//	CupelPipeline.DryRunWithPolicy         [DryRun]
//	PolicySensitivity (policy overload)    [PolicySensitivity]
//	PolicySensitivity (pipeline overload)  [PipelineSensitivity]
//	PolicySensitivityReport                [PolicySensitivityReport]
//	PolicySensitivityDiffEntry             [SensitivityDiff]
//	ItemStatus                             [ItemStatus]
//	CupelPipeline.GetMarginalItems         [MarginalItems]
//	CupelPipeline.FindMinBudgetFor         [MinBudgetFor]
//
// The spec's methods on a pipeline are functions here that take the
// [*cupel.Pipeline] as their first argument. Their errors are package
// cupel's: arguments out of range give a [*cupel.ValidationError] wrapping
// [cupel.ErrInvalidArgument], and a budget simulation of a pipeline whose
// slicer does not include items monotonically in the budget (QuotaSlice,
// and for MinBudgetFor also CountQuotaSlice and
// CountConstrainedKnapsackSlice) gives a [*cupel.NonMonotonicSlicerError]
// with the spec's message. A custom slicer is not checked: use it with
// MarginalItems and MinBudgetFor only if its inclusion is monotonic in the
// budget (spec chapter 40, Conformance Notes).
//
// Every analysis runs the pipeline several times (a sensitivity comparison
// once per variant, MinBudgetFor about log2(searchCeiling) times), each run
// with a report: they are for tools, tests and tuning, not for serving
// traffic.
package analysis
