package cupelanthropic_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCupelanthropic(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cupelanthropic")
}
