package fakeimpl_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

var fixtures = os.DirFS("../../runner/testdata/suite")

func options(require runner.Level) runner.Options {
	return runner.Options{Suite: fixtures, SuiteName: "fixtures", Timeout: 2 * time.Second, RequireLevel: require}
}

// The Go API front end: Run and Check, with and without a required level,
// for every implementation of the table.
var _ = Describe("The Run and Check API with each test implementation", func() {
	suite, err := casefile.LoadSuite(fixtures)
	if err != nil {
		panic(err)
	}
	for _, name := range fakeimpl.Names {
		Describe(name, func() {
			It("gives every case its status, and the level", func() {
				rep, err := runner.Run(context.Background(), fakeimpl.New(name, suite), options(""))
				Expect(err).NotTo(HaveOccurred())
				Expect(rep.Cases).To(HaveLen(len(suite.Cases)))
				for _, c := range rep.Cases {
					Expect(c.Outcome).To(Equal(fakeimpl.Want(name, suite.Case(c.ID))), "%s: %s", c.ID, c.Message)
				}
				Expect(rep.Level).To(Equal(fakeimpl.Level(name)), rep.LevelReason)
				Expect(rep.Filtered).To(BeFalse())
				Expect(rep.Infrastructure).To(BeEmpty())
			})

			It("has a verdict without a required level: only the conformant one passes", func() {
				rep, err := runner.Run(context.Background(), fakeimpl.New(name, suite), options(""))
				Expect(err).NotTo(HaveOccurred())
				err = runner.Check(fakeimpl.New(name, suite), options(""))
				if name == fakeimpl.Conformant {
					Expect(rep.Err()).To(Succeed())
					Expect(err).To(Succeed())
					return
				}
				Expect(rep.Err()).To(MatchError(runner.ErrFailed))
				Expect(err).To(MatchError(runner.ErrFailed))
				listed := 0
				v := rep.Verdict()
				for i, c := range rep.Cases {
					if v.Cases[i].Class == runner.ClassGated && listed < 10 {
						listed++
						Expect(err.Error()).To(ContainSubstring(c.ID + ": " + string(c.Outcome)))
					}
				}
				if v.Gated > 10 {
					Expect(err.Error()).To(HaveSuffix(fmt.Sprintf("... and %d more", v.Gated-10)))
				} else {
					Expect(err.Error()).NotTo(MatchRegexp(`\.\.\. and \d+ more$`))
				}
			})

			It("has a verdict with a required level", func() {
				for _, lvl := range []runner.Level{runner.LevelConformant, runner.LevelFullyConformant} {
					err := runner.Check(fakeimpl.New(name, suite), options(lvl))
					if fakeimpl.Level(name).AtLeast(lvl) {
						Expect(err).To(Succeed(), "%s", lvl)
					} else {
						Expect(err).To(MatchError(runner.ErrFailed), "%s", lvl)
						Expect(err).To(MatchError(ContainSubstring("misses the target " + lvl.Title())))
					}
				}
			})

			It("writes every report format without losing a case", func() {
				rep, err := runner.Run(context.Background(), fakeimpl.New(name, suite), options(""))
				Expect(err).NotTo(HaveOccurred())
				var text, junit, tap, md, badge, js bytes.Buffer
				Expect(report.WriteText(&text, rep, report.TextOptions{Suite: suite})).To(Succeed())
				Expect(report.WriteJUnit(&junit, rep, nil)).To(Succeed())
				Expect(report.WriteTAP(&tap, rep, nil)).To(Succeed())
				Expect(report.WriteMarkdown(&md, rep)).To(Succeed())
				Expect(report.WriteBadge(&badge, rep)).To(Succeed())
				Expect(rep.WriteJSON(&js)).To(Succeed())
				Expect(text.String()).To(ContainSubstring("level: " + rep.Level.Title()))
				Expect(tap.String()).To(ContainSubstring("1..14\n")) // the cases; no target, so no conformance level
				for _, c := range rep.Cases {
					Expect(junit.String()).To(ContainSubstring(`name="` + c.ID + `"`))
					Expect(tap.String()).To(ContainSubstring(c.ID))
					if runner.Classify(c, "") == runner.ClassGated && c.Outcome != protocol.OutcomeUnsupported {
						Expect(text.String()).To(ContainSubstring(c.ID))
					}
				}
			})
		})
	}

	It("turns a panic of the implementation into a crash of that case only", func() {
		rep, err := runner.Run(context.Background(), fakeimpl.New(fakeimpl.Crashing, suite), options(""))
		Expect(err).NotTo(HaveOccurred())
		for _, c := range rep.Cases {
			if c.ID == fakeimpl.CrashID {
				Expect(c.Message).To(ContainSubstring("panic: fakeimpl: crashing on " + fakeimpl.CrashID))
			}
		}
	})

	It("breaks every answer of the broken implementations (the table is not vacuous)", func() {
		for _, c := range suite.Cases {
			Expect(fakeimpl.Want(fakeimpl.OptionalFailures, c) == protocol.OutcomeFail).To(Equal(c.Tier == casefile.TierOptional))
		}
		Expect(runner.Check(fakeimpl.New("nonesuch", suite), options(""))).To(MatchError(runner.ErrUsage), "a nil Implementation")
	})
})
