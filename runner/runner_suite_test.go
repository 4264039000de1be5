package runner_test

import (
	"context"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

func TestRunner(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "runner")
}

// fixtures loads runner/testdata/suite.
func fixtures() *casefile.Suite {
	GinkgoHelper()
	s, err := casefile.LoadSuite(os.DirFS("testdata/suite"))
	Expect(err).NotTo(HaveOccurred())
	Expect(s.Errors).To(BeEmpty())
	return s
}

func fixtureOptions() runner.Options {
	return runner.Options{Suite: os.DirFS("testdata/suite"), SuiteName: "fixtures"}
}

func newOracle() *oracleimpl.Oracle { return oracleimpl.New(fixtures()) }

func ctx() context.Context { return context.Background() }
