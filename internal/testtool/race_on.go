//go:build race

package testtool

// Race is true when the tests are built with the race detector (-race).
// Property and sample loops may run fewer iterations then (see [Iterations]).
const Race = true
