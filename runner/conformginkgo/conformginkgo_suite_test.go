package conformginkgo_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestConformginkgo(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "conformginkgo")
}
