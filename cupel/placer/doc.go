// Package placer holds the spec's built-in placers, the components that
// order a pipeline's final selection (spec chapter 31 (Placers)). Put one in
// [cupel.Policy].Placer:
//
//	spec name            Go name                           chapter
//	-------------------  --------------------------------  -------
//	ChronologicalPlacer  Chronological, NewChronological   32
//	UShapedPlacer        UShaped, NewUShaped               33
//
// Each Place method is its chapter's algorithm, written out step by step.
// Beside it, each placer implements optional interfaces of package cupel
// that the pipeline's Place stage takes instead (the table in package
// cupel's documentation), each proved equal to Place by a differential
// test:
//
//   - [Chronological]: [cupel.PositionPlacer].
//   - [UShaped]: [cupel.RankedPlacer] and [cupel.PositionPlacer].
//
// Both placers have no state: their zero values and nil pointers are ready
// to use and safe for concurrent use.
package placer
