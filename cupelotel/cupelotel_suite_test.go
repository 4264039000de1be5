package cupelotel_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupelotel(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupelotel")
}
