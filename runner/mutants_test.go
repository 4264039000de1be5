package runner_test

import (
	"context"
	"runtime"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/enginebaseline"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// mutant is go-cupel with a deliberate bug, injected by rewriting the
// request before the engine sees it (and the answer after).
type mutant struct {
	req func(*protocol.Request) (undo func(*protocol.Result))
}

func (m mutant) Hello(ctx context.Context) (protocol.Identity, error) {
	return runner.Engine().Hello(ctx)
}

func (m mutant) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	req.Case.Items = slices.Clone(req.Case.Items)
	if b := req.Case.Budget; b != nil {
		cp := *b
		req.Case.Budget = &cp
	}
	undo := m.req(&req)
	res, err := runner.Engine().Run(ctx, req)
	if undo != nil && err == nil {
		undo(&res)
	}
	return res, err
}

// reverseItems makes the engine see the items in reverse order and maps
// its answer back: an implementation whose sorts are not stable, or that
// breaks ties by the wrong end.
func reverseItems(req *protocol.Request) func(*protocol.Result) {
	items := req.Case.Items
	n := len(items)
	slices.Reverse(items)
	back := func(i int) int { return n - 1 - i }
	return func(r *protocol.Result) {
		if r.Output == nil {
			return
		}
		for i := range r.Output.Scores {
			r.Output.Scores[i].Index = back(r.Output.Scores[i].Index)
		}
		for _, list := range [][]int{r.Output.Selected, r.Output.Ordered} {
			for i := range list {
				list[i] = back(list[i])
			}
		}
		if d := r.Output.Diagnostics; d != nil {
			for i := range d.Included {
				d.Included[i].Index = back(d.Included[i].Index)
			}
			for i := range d.Excluded {
				d.Excluded[i].Index = back(d.Excluded[i].Index)
			}
		}
	}
}

func failures(m mutant) []string {
	GinkgoHelper()
	rep, err := runner.Run(context.Background(), m, runner.Options{})
	Expect(err).NotTo(HaveOccurred())
	var ids []string
	for _, c := range rep.Cases {
		if c.Outcome != protocol.OutcomePass {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// plainPassOnly skips a spec that runs the suite against a mutant under
// -race or on 386. Under -race each such run goes through the same code
// as the unbroken engine's run, in one goroutine, 5 to 10 times slower;
// the race pass keeps that run ("passes in full"). The 386 pass is for
// int's 32 bits in the engine and the runner, which the unbroken engine's
// run and the rest of the suite exercise; whether the suite catches a
// mutant does not depend on the width of int. The plain pass checks that
// the suite catches every mutant.
func plainPassOnly() {
	switch {
	case testtool.Race:
		Skip("the same runner code as the unbroken engine's run, which -race runs; the plain pass runs this mutant")
	case runtime.GOARCH == "386":
		Skip("whether the suite catches a mutant does not depend on int's width; the plain pass runs this mutant")
	}
}

var _ = Describe("The embedded suite against deliberately broken engines", func() {
	BeforeEach(func() {
		s, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		// No silent guard: a suite shrunk below 100 cases would make
		// every mutant below easy to miss, so it is a failure, not a skip.
		Expect(len(s.Cases)).To(BeNumerically(">=", 100), "the embedded suite is not complete")
	})

	It("passes in full with the engine as it is", func() {
		// On a 32-bit platform, exactly the cases that need 64-bit
		// integers are unsupported.
		var want []string
		if x := enginebaseline.EngineExpectedFailures(); x != nil {
			for _, e := range x.Entries {
				want = append(want, e.ID)
			}
		}
		Expect(failures(mutant{req: func(*protocol.Request) func(*protocol.Result) { return nil }})).To(ConsistOf(want))
	})

	It("catches an engine that ignores the output reserve", func() {
		plainPassOnly()
		Expect(failures(mutant{req: func(r *protocol.Request) func(*protocol.Result) {
			if r.Case.Budget != nil {
				r.Case.Budget.OutputReserve = 0
			}
			return nil
		}})).To(ContainElement(MatchRegexp("required/pipeline/.*output-reserve")))
	})

	It("catches an engine that ignores reserved slots and the safety margin", func() {
		plainPassOnly()
		ids := failures(mutant{req: func(r *protocol.Request) func(*protocol.Result) {
			if r.Case.Budget != nil {
				r.Case.Budget.ReservedSlots = nil
				r.Case.Budget.EstimationSafetyMarginPercent = 0
			}
			return nil
		}})
		Expect(ids).To(ContainElement(MatchRegexp("reserved-slots")))
		Expect(ids).To(ContainElement(MatchRegexp("safety-margin")))
	})

	It("catches an engine whose effective target is one token short", func() {
		plainPassOnly()
		Expect(failures(mutant{req: func(r *protocol.Request) func(*protocol.Result) {
			if r.Stage == casefile.StagePipeline && r.Case.Budget.TargetTokens > 0 {
				r.Case.Budget.TargetTokens--
			}
			return nil
		}})).To(ContainElement(HavePrefix("required/pipeline/")))
	})

	It("catches an engine whose sorts break ties by the wrong end", func() {
		plainPassOnly()
		ids := failures(mutant{req: reverseItems})
		Expect(ids).To(ContainElement(MatchRegexp("required/placing/.*tie")))
		Expect(ids).To(ContainElement(MatchRegexp("required/slicing/greedy-tie-by-index")))
	})

	It("catches an engine that never deduplicates", func() {
		plainPassOnly()
		Expect(failures(mutant{req: func(r *protocol.Request) func(*protocol.Result) {
			if r.Case.Deduplication != nil {
				f := false
				r.Case.Deduplication = &f
			}
			return nil
		}})).To(ContainElement(MatchRegexp("required/pipeline/.*dedup")))
	})

	It("catches an engine off by 1e-6 in every score", func() {
		plainPassOnly()
		Expect(failures(mutant{req: func(*protocol.Request) func(*protocol.Result) {
			return func(r *protocol.Result) {
				if r.Output != nil {
					for i := range r.Output.Scores {
						r.Output.Scores[i].Score += 1e-6
					}
				}
			}
		}})).To(ContainElement(HavePrefix("required/scoring/")))
	})
})
