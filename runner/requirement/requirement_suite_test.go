package requirement_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRequirement(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "requirement")
}
