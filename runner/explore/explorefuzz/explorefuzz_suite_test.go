package explorefuzz_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestExploreFuzz(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "explorefuzz")
}
