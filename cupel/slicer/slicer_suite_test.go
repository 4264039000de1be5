package slicer_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSlicer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "slicer")
}
