// Package scorer holds the built-in scorers of the Cupel specification 1.3
// (chapters 13 to 24), beside the engine in package cupel, the way cmpopts
// sits beside cmp. Each is a [cupel.Scorer] for [cupel.Policy]; the
// composite and scaled scorers take any scorer, custom ones included.
//
//	spec name            Go name          chapter  optional interface
//	-------------------  ---------------  -------  ------------------
//	RecencyScorer        Recency          14       cupel.BatchScorer
//	PriorityScorer       Priority         15       cupel.BatchScorer
//	KindScorer           Kind             16       cupel.BatchScorer
//	TagScorer            Tag              17       -
//	FrequencyScorer      Frequency        18       cupel.BatchScorer
//	ReflexiveScorer      Reflexive        19       -
//	CompositeScorer      Composite        20       cupel.BatchScorer
//	ScaledScorer         Scaled           21       cupel.BatchScorer
//	MetadataTrustScorer  MetadataTrust    22       -
//	DecayScorer          Decay            23       cupel.BatchScorer
//	MetadataKeyScorer    MetadataKey      24       -
//
// Each scorer's Score is its chapter's algorithm. The pipeline scores
// through [cupel.ScoreBatch], which calls ScoreAll where a scorer has it
// (one pass over the items, equal to Score item by item, bit for bit) and
// Score otherwise, exactly as it calls a custom scorer. Errors in a
// configuration are [*cupel.ValidationError]s wrapping
// [cupel.ErrInvalidConfig], and name the spec component ("KindScorer",
// "DecayCurve", ...). Every scorer is immutable and safe for concurrent
// use (a [Decay] when its [Clock] is).
package scorer
