package cupeltest_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupeltest(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupeltest")
}
