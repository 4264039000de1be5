// Package keysort sorts the engine's sort records ([KeyIdx]: an
// order-preserving uint64 key and a position) and lends the buffers the
// stages and the built-in components sort in. Package cupel and its
// component packages share it; it decides one order, that of
// slices.SortFunc(k, Cmp), with the fast sorts in sortsmall.go and
// sort_radix.go proven equal to it by TestSortKeyIdxAgreesWithReference.
package keysort
