package cupeleino_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupeleino(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupeleino")
}
