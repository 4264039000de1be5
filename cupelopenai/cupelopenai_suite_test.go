package cupelopenai_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupelopenai(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupelopenai")
}
