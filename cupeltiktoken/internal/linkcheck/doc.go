// Package linkcheck holds one small program per way of making a Counter;
// the package's link test builds them and checks which vocabularies each
// binary holds.
package linkcheck
