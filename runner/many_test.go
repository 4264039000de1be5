package runner_test

import (
	"context"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// rendezvous is an implementation whose Hello returns only once every
// other rendezvous of its group has been called: run one after the other,
// the first Hello times out.
type rendezvous struct {
	protocol.Implementation
	arrived *sync.WaitGroup
}

func (r rendezvous) Hello(ctx context.Context) (protocol.Identity, error) {
	r.arrived.Done()
	done := make(chan struct{})
	go func() { r.arrived.Wait(); close(done) }()
	select {
	case <-done:
		return r.Implementation.Hello(ctx)
	case <-ctx.Done():
		return protocol.Identity{}, ctx.Err()
	}
}

var _ = Describe("RunMany", func() {
	It("runs the implementations at once and returns their reports in order", func() {
		var arrived sync.WaitGroup
		arrived.Add(3)
		broken := newOracle()
		broken.Mutate = breakCase("required/placing/u-shaped-seven-items")
		impls := []runner.NamedImpl{
			{Name: "engine", Impl: rendezvous{runner.Engine(), &arrived}},
			{Name: "unsupported", Impl: rendezvous{myImpl{}, &arrived}},
			{Name: "broken", Impl: rendezvous{broken, &arrived}},
		}
		opts := fixtureOptions()
		opts.StartupTimeout = 20 * time.Second
		reps, err := runner.RunMany(ctx(), impls, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(reps).To(HaveLen(3))
		for _, r := range reps {
			Expect(r.Infrastructure).To(BeEmpty(), "every Hello met the others: the runs overlapped")
		}
		Expect(reps[0].Implementation.Name).To(Equal("go-cupel"))
		Expect(reps[0].Level).To(Equal(runner.LevelFullyConformant))
		Expect(reps[1].Implementation.Name).To(Equal("my-cupel"))
		Expect(reps[1].Counts["all"][protocol.OutcomePass]).To(BeZero())
		Expect(statusOf(reps[2], "required/placing/u-shaped-seven-items")).To(Equal(protocol.OutcomeFail))
		Expect(reps[2].Counts["all"][protocol.OutcomeFail]).To(Equal(1))
	})

	It("returns a run's usage error under the implementation's name", func() {
		opts := fixtureOptions()
		opts.Run = "("
		_, err := runner.RunMany(ctx(), []runner.NamedImpl{{Name: "engine", Impl: runner.Engine()}}, opts)
		Expect(err).To(MatchError(runner.ErrUsage))
		Expect(err.Error()).To(HavePrefix("engine: "))
	})

	DescribeTable("rejects implementations it cannot tell apart",
		func(impls []runner.NamedImpl, want string) {
			_, err := runner.RunMany(ctx(), impls, fixtureOptions())
			Expect(err).To(MatchError(runner.ErrUsage))
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("none", nil, "no implementation to run"),
		Entry("no name", []runner.NamedImpl{{Impl: runner.Engine()}}, "implementation 1 has no name"),
		Entry("nil", []runner.NamedImpl{{Name: "x"}}, `implementation "x" is nil`),
		Entry("a repeated name", []runner.NamedImpl{{Name: "x", Impl: runner.Engine()}, {Name: "x", Impl: myImpl{}}}, `two implementations are named "x"`),
	)
})
