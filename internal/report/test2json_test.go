package report_test

import (
	"bytes"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/fakeimpl"
	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// test2jsonOf decodes the stream of rep: every event, and the last action
// of each test ("" for the package).
func test2jsonOf(rep *runner.Report, suite *casefile.Suite) ([]report.TestEvent, map[string]string) {
	var b bytes.Buffer
	Expect(report.WriteTest2JSON(&b, rep, suite)).To(Succeed())
	var events []report.TestEvent
	actions := map[string]string{}
	dec := json.NewDecoder(&b)
	for dec.More() {
		var e report.TestEvent
		Expect(dec.Decode(&e)).To(Succeed())
		Expect(e.Package).To(Equal(report.Test2JSONPackage(rep)))
		events = append(events, e)
		switch e.Action {
		case "pass", "fail", "skip":
			Expect(actions).NotTo(HaveKey(e.Test), "two ends of %q", e.Test)
			actions[e.Test] = e.Action
			Expect(e.Elapsed).NotTo(BeNil())
		case "start", "run", "output":
		default:
			Fail("unknown action " + e.Action)
		}
	}
	return events, actions
}

var _ = Describe("The go test -json stream", func() {
	DescribeTable("renders the verdict: each case's class, the tiers, the level test and the package",
		func(impl string, opts runner.Options) {
			rep, suite := fixtureRun(impl, opts)
			events, actions := test2jsonOf(rep, suite)
			Expect(events[0].Action).To(Equal("start"))
			last := events[len(events)-1]
			Expect(last.Test).To(BeEmpty())
			v := rep.Verdict()
			Expect(last.Action).To(Equal(map[bool]string{true: "pass", false: "fail"}[v.Passed]))
			Expect(events[len(events)-2].Output).To(HavePrefix(map[bool]string{true: "ok  \t", false: "FAIL\t"}[v.Passed]))
			tierFails := map[string]bool{}
			n := 0
			for _, c := range rep.Cases {
				class, _ := v.ClassOf(c.ID)
				if c.Outcome == protocol.OutcomeSkip {
					Expect(actions).NotTo(HaveKey(c.ID), "a filtered-out case is no test")
					continue
				}
				n++
				want := map[runner.Class]string{runner.ClassGated: "fail", runner.ClassWarning: "skip", runner.ClassOK: "pass"}[class]
				if !c.Ran() {
					want = "skip"
				}
				Expect(actions[c.ID]).To(Equal(want), c.ID)
				tierFails[c.Tier] = tierFails[c.Tier] || want == "fail"
			}
			for tier, f := range tierFails {
				Expect(actions[tier]).To(Equal(map[bool]string{true: "fail", false: "pass"}[f]), tier)
			}
			if v.Target != "" {
				Expect(actions[report.LevelTestName]).To(Equal(map[bool]string{true: "pass", false: "fail"}[v.Level.AtLeast(v.Target)]))
			} else {
				Expect(actions).NotTo(HaveKey(report.LevelTestName))
			}
			Expect(actions).To(HaveLen(n + len(tierFails) + 1 + map[bool]int{true: 1}[v.Target != ""]))
		},
		Entry("a conformant implementation", fakeimpl.Conformant, runner.Options{RequireLevel: runner.LevelFullyConformant}),
		Entry("a failing implementation", fakeimpl.FailingRequired, runner.Options{RequireLevel: runner.LevelConformant}),
		Entry("warnings", fakeimpl.OptionalFailures, runner.Options{RequireLevel: runner.LevelConformant}),
		Entry("strict", fakeimpl.OptionalFailures, runner.Options{}),
		Entry("a filtered run", fakeimpl.FailingRequired, runner.Options{Stages: []string{casefile.StageScoring}}),
		Entry("a crash", fakeimpl.Crashing, runner.Options{}),
	)

	It("gives a gated case its failure detail as output, and a warning its reason", func() {
		rep, suite := fixtureRun(fakeimpl.OptionalFailures, runner.Options{RequireLevel: runner.LevelConformant})
		events, _ := test2jsonOf(rep, suite)
		out := map[string]string{}
		for _, e := range events {
			out[e.Test] += e.Output
		}
		v := rep.Verdict()
		seen := 0
		for _, c := range rep.Cases {
			if class, _ := v.ClassOf(c.ID); class == runner.ClassWarning {
				seen++
				Expect(out[c.ID]).To(ContainSubstring("not required for Cupel Conformant"))
				Expect(out[c.ID]).To(ContainSubstring("--- SKIP: " + c.ID))
			}
		}
		Expect(seen).To(BeNumerically(">", 0))
		strict, suite := fixtureRun(fakeimpl.OptionalFailures, runner.Options{})
		events, _ = test2jsonOf(strict, suite)
		out = map[string]string{}
		for _, e := range events {
			out[e.Test] += e.Output
		}
		for _, c := range strict.Cases {
			if c.Outcome == protocol.OutcomeFail {
				Expect(out[c.ID]).To(ContainSubstring("    fail: "), c.ID)
				Expect(out[c.ID]).To(ContainSubstring("    inputs:"), c.ID)
				Expect(out[c.ID]).To(ContainSubstring("--- FAIL: "+c.ID), c.ID)
			}
		}
		Expect(strings.Count(out[""], "verdict: FAIL")).To(Equal(1))
	})
})
