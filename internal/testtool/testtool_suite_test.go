package testtool_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTesttool(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "testtool")
}
