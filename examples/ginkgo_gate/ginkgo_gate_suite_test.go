// Package ginkgo_gate gates a Go implementation from a Ginkgo suite with
// package runner/conformginkgo: one spec per conformance case, labelled
// by tier and stage. Here the implementation is go-cupel itself.
package ginkgo_gate

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestGinkgoGate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Cupel conformance gate")
}
