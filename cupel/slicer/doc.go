// Package slicer holds the built-in slicers of package cupel: the Slice
// stage's algorithms of the Cupel specification 1.3 (chapters 25 to 30),
// with their configuration. Each is a [cupel.Slicer] that a [cupel.Policy]
// takes like any other; the pipeline reaches their fast paths through the
// optional interfaces of package cupel, exactly as it would a custom
// slicer's.
//
//	spec name                      Go name                         chapter
//	-----------------------------  ------------------------------  -------
//	GreedySlice                    Greedy, NewGreedy               26
//	KnapsackSlice                  Knapsack, NewKnapsack,          27
//	                               KnapsackOption, WithTableLimit
//	QuotaSlice                     Quota, NewQuota,                28
//	                               QuotaSet, NewQuotaSet,
//	                               QuotaEntry, Require, Cap,
//	                               RequireCap
//	CountQuotaSlice                CountQuota, NewCountQuota,      29
//	                               CountQuotaEntry,
//	                               NewCountQuotaEntry,
//	                               ScarcityBehavior
//	CountConstrainedKnapsackSlice  CountConstrainedKnapsack,       30
//	                               NewCountConstrainedKnapsack
//	StreamSlice                    Stream, NewStream               25
//
// The optional interfaces of package cupel each one implements (besides
// [cupel.Slicer]):
//
//	Greedy                    PositionSlicer, ContextSlicer, UnsortedSlicer
//	Knapsack                  PositionSlicer, ContextSlicer,
//	                          ContextPositionSlicer
//	Quota                     ContextSlicer, WholeSetSlicer
//	CountQuota                DetailedSlicer, ContextSlicer, WholeSetSlicer
//	CountConstrainedKnapsack  DetailedSlicer, ContextSlicer, WholeSetSlicer
//	Stream                    ContextSlicer
//
// The quota slicers are WholeSetSlicers: [cupel.Pipeline.RunStream]
// refuses them. [QuotaSet.Utilization] and [CountUtilization] measure a
// report's selection against quotas. The error messages name the spec's
// components ("CountQuotaSlice: ..."), as other implementations' do.
//
// Every slicer is immutable and safe for concurrent use (the decorators
// when their inner slicer is).
package slicer
