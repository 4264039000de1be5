package report_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/requirement"
)

// fixtureCatalogue is the catalogue the fixture suite's covers refer to.
func fixtureCatalogue() *requirement.Catalogue {
	GinkgoHelper()
	cat, err := requirement.Load(os.DirFS("../../runner/testdata/requirements"))
	Expect(err).NotTo(HaveOccurred())
	return cat
}

// fixtureRun runs the implementation called name over the fixture suite,
// judged against its catalogue, and makes the report reproducible: no
// clock, no durations.
func fixtureRun(name string, opts runner.Options) (*runner.Report, *casefile.Suite) {
	opts.Suite, opts.SuiteName = os.DirFS("../../runner/testdata/suite"), "fixtures"
	opts.Catalogue = fixtureCatalogue()
	opts.Timeout = 2 * time.Second // generous: only the slow case times out, however loaded the machine
	suite, err := casefile.LoadSuite(opts.Suite)
	Expect(err).NotTo(HaveOccurred())
	rep, err := runner.RunSuite(context.Background(), fakeimpl.New(name, suite), suite, opts)
	Expect(err).NotTo(HaveOccurred())
	rep.Started, rep.Duration = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 0
	for i := range rep.Cases {
		rep.Cases[i].Duration = 0
	}
	rep.Runner.Version = "devel"
	return rep, suite
}

var _ = Describe("The reports of implementations that fall short", func() {
	formats := []struct {
		name  string
		write func(w io.Writer, r *runner.Report, s *casefile.Suite) error
	}{
		{"txt", func(w io.Writer, r *runner.Report, s *casefile.Suite) error {
			return report.WriteText(w, r, report.TextOptions{Suite: s})
		}},
		{"xml", func(w io.Writer, r *runner.Report, s *casefile.Suite) error { return report.WriteJUnit(w, r, s) }},
		{"tap", func(w io.Writer, r *runner.Report, s *casefile.Suite) error { return report.WriteTAP(w, r, s) }},
		{"md", func(w io.Writer, r *runner.Report, _ *casefile.Suite) error { return report.WriteMarkdown(w, r) }},
	}
	for _, name := range []string{fakeimpl.FailingRequired, fakeimpl.OptionalFailures, fakeimpl.Partial, fakeimpl.OutOfRange} {
		for _, f := range formats {
			It("are stable for "+name+" ("+f.name+")", func() {
				rep, suite := fixtureRun(name, runner.Options{})
				var b bytes.Buffer
				Expect(f.write(&b, rep, suite)).To(Succeed())
				g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix("."+f.name))
				g.Assert(GinkgoTB(), name, b.Bytes())
			})
		}
	}

	It("say in the text report that a required level is met only when it is", func() {
		rep, suite := fixtureRun(fakeimpl.OptionalFailures, runner.Options{RequireLevel: runner.LevelFullyConformant})
		var b bytes.Buffer
		Expect(report.WriteText(&b, rep, report.TextOptions{Suite: suite})).To(Succeed())
		Expect(b.String()).To(HaveSuffix("\n" + rep.Verdict().Line() + "\n"))
		Expect(rep.Verdict().Line()).To(HavePrefix("verdict: FAIL — "))
		Expect(rep.Verdict().Line()).To(ContainSubstring("misses the target Cupel Fully Conformant"))

		rep, suite = fixtureRun(fakeimpl.OptionalFailures, runner.Options{RequireLevel: runner.LevelConformant})
		b.Reset()
		Expect(report.WriteText(&b, rep, report.TextOptions{Suite: suite})).To(Succeed())
		Expect(b.String()).To(HaveSuffix("\n" + rep.Verdict().Line() + "\n"))
		Expect(rep.Verdict().Line()).To(MatchRegexp(`^verdict: PASS — level Cupel Conformant reaches the target Cupel Conformant; \d+ warnings \(optional cases failed or unsupported, not required for Cupel Conformant\)$`))
	})

	It("cap the failures shown in full, with no '... and 0 more' line", func() {
		rep, suite := fixtureRun(fakeimpl.FailingRequired, runner.Options{})
		v := rep.Verdict()
		n := v.Gated + v.Warnings
		for _, max := range []int{n - 1, n, n + 1} {
			var b bytes.Buffer
			Expect(report.WriteText(&b, rep, report.TextOptions{Suite: suite, MaxFailures: max})).To(Succeed())
			if max < n {
				Expect(b.String()).To(ContainSubstring("… and 1 more failure (see the JSON report)"))
			} else {
				Expect(b.String()).NotTo(MatchRegexp(`… and \d+ more failures?`))
			}
		}
	})
})
