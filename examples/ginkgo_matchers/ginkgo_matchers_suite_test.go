// Package ginkgo_matchers is an application test in Ginkgo: it states what
// the context selection of a support agent's turn must do, with the Gomega
// matchers of package matchers.
package ginkgo_matchers

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestGinkgoMatchers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "agent context selection")
}
