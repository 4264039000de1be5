// Package wirejsontest holds what the fuzz targets of the fast JSON readers
// (package wirejson and its users in runner/protocol and runner/casefile)
// share: the comparison of a fast reader's value with encoding/json's.
// It is for tests only.
package wirejsontest
