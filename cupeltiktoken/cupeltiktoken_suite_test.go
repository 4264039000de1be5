package cupeltiktoken_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupeltiktoken(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupeltiktoken")
}
