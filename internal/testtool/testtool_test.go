package testtool_test

import (
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// fakeT records what Need asks of a test. Skipf and Fatalf end the test
// in the testing package (runtime.Goexit); here they panic, and need
// recovers.
type fakeT struct{ skipped, fatal string }

type stop struct{}

func (*fakeT) Helper() {}
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	panic(stop{})
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	panic(stop{})
}

func need(names ...string) (path string, t *fakeT) {
	t = &fakeT{}
	defer func() {
		if p := recover(); p != nil && p != (stop{}) {
			panic(p)
		}
	}()
	return testtool.Need(t, "the test of the tool", names...), t
}

var _ = Describe("Need", func() {
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "present-tool"), []byte("#!/bin/sh\n"), 0o755)).To(Succeed())
		GinkgoT().Setenv("PATH", dir)
	})

	It("returns the path of the first tool found", func() {
		path, t := need("absent-tool", "present-tool")
		Expect(filepath.Base(path)).To(Equal("present-tool"))
		Expect(t.skipped + t.fatal).To(BeEmpty())
	})

	It("skips, saying what and why, when the tool is missing and CI is not true", func() {
		GinkgoT().Setenv("CI", "")
		_, t := need("absent-tool", "other-tool")
		Expect(t.fatal).To(BeEmpty())
		Expect(t.skipped).To(ContainSubstring("absent-tool or other-tool is not on PATH: skipping the test of the tool"))
	})

	It("fails when the tool is missing under CI=true", func() {
		GinkgoT().Setenv("CI", "true")
		_, t := need("absent-tool")
		Expect(t.skipped).To(BeEmpty())
		Expect(t.fatal).To(ContainSubstring("absent-tool is not on PATH, and CI=true requires the test of the tool to run"))
	})
})
