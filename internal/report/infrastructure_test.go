package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/sebdah/goldie/v2"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// noStart is an implementation that cannot start, as `python3
// nonexistent.py` cannot: its hello fails, and its stderr says why (in
// colour, as some loggers write it).
type noStart struct{}

// cantOpen is the cause, in noStart's stderr.
const cantOpen = "can't open file '/work/nonexistent.py': [Errno 2] No such file or directory"

func (noStart) Hello(context.Context) (protocol.Identity, error) {
	return protocol.Identity{}, &protocol.Fault{Outcome: protocol.OutcomeCrash,
		Message: "during hello: process closed its output without answering (exit status 2)",
		Stderr:  "\x1b[31mpython3: " + cantOpen + "\x1b[0m\n", Err: protocol.ErrInfrastructure}
}

func (noStart) Run(context.Context, protocol.Request) (protocol.Result, error) {
	return protocol.Result{}, errors.New("never started")
}

// noStartRun is the report of noStart over the fixture suite, made
// reproducible.
func noStartRun(target runner.Level) (*runner.Report, *casefile.Suite) {
	opts := runner.Options{Suite: os.DirFS("../../runner/testdata/suite"), SuiteName: "fixtures", RequireLevel: target, Catalogue: fixtureCatalogue()}
	suite, err := casefile.LoadSuite(opts.Suite)
	Expect(err).NotTo(HaveOccurred())
	rep, err := runner.RunSuite(context.Background(), noStart{}, suite, opts)
	Expect(err).NotTo(HaveOccurred())
	Expect(rep.Infrastructure).NotTo(BeEmpty())
	rep.Started, rep.Duration, rep.Runner.Version = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 0, "devel"
	return rep, suite
}

var _ = Describe("A run that cannot start", func() {
	for _, target := range []runner.Level{"", runner.LevelConformant} {
		It("says so once, with the implementation's stderr tail, on every surface (target "+string(target)+")", func() {
			rep, suite := noStartRun(target)
			write := map[string]func(*bytes.Buffer) error{
				"text":      func(b *bytes.Buffer) error { return report.WriteText(b, rep, report.TextOptions{Suite: suite}) },
				"markdown":  func(b *bytes.Buffer) error { return report.WriteMarkdown(b, rep) },
				"junit":     func(b *bytes.Buffer) error { return report.WriteJUnit(b, rep, suite) },
				"tap":       func(b *bytes.Buffer) error { return report.WriteTAP(b, rep, suite) },
				"test2json": func(b *bytes.Buffer) error { return report.WriteTest2JSON(b, rep, suite) },
				"json":      func(b *bytes.Buffer) error { return rep.WriteJSON(b) },
				"html": func(b *bytes.Buffer) error {
					m, err := matrix.New([]runner.NamedReport{{Name: "implementation", Report: rep}}, matrix.Options{})
					Expect(err).NotTo(HaveOccurred())
					return matrix.WriteHTML(b, m, matrix.HTMLOptions{})
				},
			}
			out := map[string]string{}
			for name, w := range write {
				var b bytes.Buffer
				Expect(w(&b)).To(Succeed())
				out[name] = b.String()
				cause := cantOpen
				if name == "html" {
					cause = strings.ReplaceAll(cause, "'", "&#39;")
				}
				Expect(strings.Count(out[name], cause)).To(Equal(1), "%s says the cause once:\n%s", name, out[name])
				Expect(strings.Count(out[name], "process closed its output without answering")).To(Equal(1), "%s says the error once", name)
			}
			for _, name := range []string{"junit", "tap", "test2json", "markdown"} {
				Expect(out[name]).NotTo(ContainSubstring("\x1b"), "%s shows implementation text safely", name)
			}
			Expect(out["markdown"]).To(HavePrefix("## Cupel conformance: (unknown)\n"))

			// One failing test, the infrastructure one; the cases are skipped.
			events, actions := test2jsonOf(rep, suite)
			Expect(events).NotTo(BeEmpty())
			failed := 0
			for test, a := range actions {
				if a == "fail" && test != "" {
					failed++
					Expect(test).To(Equal(report.InfrastructureTestName))
				}
			}
			Expect(failed).To(Equal(1))
			Expect(actions[""]).To(Equal("fail"))
			Expect(actions).NotTo(HaveKey(report.LevelTestName))
			for _, c := range rep.Cases {
				Expect(actions[c.ID]).To(Equal("skip"), c.ID)
			}
			Expect(strings.Count(out["tap"], "\nnot ok ")).To(Equal(1))
			Expect(out["tap"]).To(ContainSubstring("\nnot ok " + strconv.Itoa(len(rep.Cases)+1) + " - infrastructure\n"))
			Expect(out["junit"]).To(ContainSubstring(`<testsuites name="cupel-conform (unknown)" tests="` + strconv.Itoa(len(rep.Cases)+1) + `" failures="0" errors="1"`))

			var back map[string]any
			Expect(json.Unmarshal([]byte(out["json"]), &back)).To(Succeed())
			Expect(back["infrastructure_stderr"]).To(ContainSubstring(cantOpen))
		})
	}

	It("is stable in every format", func() {
		rep, suite := noStartRun(runner.LevelConformant)
		for ext, w := range map[string]func(*bytes.Buffer) error{
			"txt": func(b *bytes.Buffer) error { return report.WriteText(b, rep, report.TextOptions{Suite: suite}) },
			"md":  func(b *bytes.Buffer) error { return report.WriteMarkdown(b, rep) },
			"xml": func(b *bytes.Buffer) error { return report.WriteJUnit(b, rep, suite) },
			"tap": func(b *bytes.Buffer) error { return report.WriteTAP(b, rep, suite) },
		} {
			var b bytes.Buffer
			Expect(w(&b)).To(Succeed())
			g := goldie.New(GinkgoTB(), goldie.WithFixtureDir("testdata/golden"), goldie.WithNameSuffix("."+ext))
			g.Assert(GinkgoTB(), "cannot-start", b.Bytes())
		}
	})
})
