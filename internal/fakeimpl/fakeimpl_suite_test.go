package fakeimpl_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTestimpl(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "fakeimpl")
}
