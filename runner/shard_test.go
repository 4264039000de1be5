package runner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/enginebaseline"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/explore"
)

// caseLines are a report's cases as id, status and message.
func caseLines(r *runner.Report) []string {
	var out []string
	for _, c := range r.Cases {
		out = append(out, c.ID+" "+string(c.Outcome)+" "+c.Message)
	}
	return out
}

// throughJSON is r written and read back, as report merge reads shards.
func throughJSON[T any](r *T) *T {
	GinkgoHelper()
	var b bytes.Buffer
	Expect(json.NewEncoder(&b).Encode(r)).To(Succeed())
	var back T
	Expect(json.Unmarshal(b.Bytes(), &back)).To(Succeed())
	return &back
}

var _ = Describe("shards", func() {
	It("parses I/N and rejects the rest", func() {
		s, err := runner.ParseShard("2/5")
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(runner.Shard{Index: 2, Count: 5}))
		Expect(s.String()).To(Equal("2/5"))
		for _, bad := range []string{"0/3", "4/3", "1", "a/b", "1/0", "-1/2"} {
			_, err := runner.ParseShard(bad)
			Expect(errors.Is(err, runner.ErrUsage)).To(BeTrue(), bad)
		}
		// Every position in exactly one shard.
		for p := range 50 {
			owners := 0
			for i := 1; i <= 4; i++ {
				if (runner.Shard{Index: i, Count: 4}).Owns(p) {
					owners++
				}
			}
			Expect(owners).To(Equal(1))
		}
	})

	It("N shards of a run merge into the report of the unsharded run", func() {
		impl := plantedImpl{bugs: []string{casefile.StagePlacing, casefile.StageSlicing}}
		whole, err := runner.Run(ctx(), impl, runner.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(whole.Level).To(Equal(runner.LevelNone), "the planted bugs fail required cases")
		var parts []*runner.Report
		for i := 1; i <= 3; i++ {
			r, err := runner.Run(ctx(), impl, runner.Options{Shard: runner.Shard{Index: i, Count: 3}})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Filtered).To(BeTrue(), "a shard alone claims no level")
			Expect(r.LevelReason).To(HavePrefix("shard %d/3 claims no level", i))
			Expect(r.Verdict().LevelText).To(Equal(fmt.Sprintf("no level claimed (shard %d/3 of a run)", i)))
			parts = append(parts, throughJSON(r))
		}
		merged, err := runner.MergeReports([]*runner.Report{parts[2], parts[0], parts[1]})
		Expect(err).NotTo(HaveOccurred())
		Expect(caseLines(merged)).To(Equal(caseLines(whole)))
		Expect(merged.Level).To(Equal(whole.Level))
		Expect(merged.LevelReason).To(Equal(whole.LevelReason))
		Expect(merged.Counts).To(Equal(whole.Counts))
		Expect(merged.StageCounts).To(Equal(whole.StageCounts))
		Expect(merged.Verdict()).To(Equal(whole.Verdict()))
		Expect(merged.Filtered).To(BeFalse())
		Expect(merged.Err().Error()).To(Equal(whole.Err().Error()))

		// A target set on the merged report judges it as the unsharded run
		// with that target is judged; a shard accepts none.
		for _, lvl := range []runner.Level{runner.LevelConformant, runner.LevelFullyConformant} {
			target, err := runner.Run(ctx(), impl, runner.Options{RequireLevel: lvl})
			Expect(err).NotTo(HaveOccurred())
			Expect(merged.Require(lvl)).To(Succeed())
			Expect(merged.Verdict()).To(Equal(target.Verdict()))
			Expect(parts[0].Require(lvl)).To(MatchError(runner.ErrUsage))
		}

		good, err := runner.Run(ctx(), runner.Engine(), runner.Options{})
		Expect(err).NotTo(HaveOccurred())
		var goods []*runner.Report
		for i := 1; i <= 2; i++ {
			r, err := runner.Run(ctx(), runner.Engine(), runner.Options{Shard: runner.Shard{Index: i, Count: 2}})
			Expect(err).NotTo(HaveOccurred())
			goods = append(goods, r)
		}
		m, err := runner.MergeReports(goods)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Level).To(Equal(good.Level))
		Expect(m.Level).To(Equal(enginebaseline.EngineLevel()))
		Expect(m.LevelReason).To(Equal(good.LevelReason))

		_, err = runner.MergeReports(goods[:1])
		Expect(err).To(MatchError(ContainSubstring("shard 2/2 is missing")))
		_, err = runner.MergeReports(parts[:1])
		Expect(err).To(MatchError(ContainSubstring("shards 2/3, 3/3 are missing")))
		_, err = runner.MergeReports([]*runner.Report{goods[0], goods[0]})
		Expect(err).To(MatchError(ContainSubstring("shard 1/2 is given twice")))
		_, err = runner.MergeReports([]*runner.Report{goods[0], parts[1], parts[2]})
		Expect(errors.Is(err, runner.ErrUsage)).To(BeTrue())
	})

	It("N shards of an exploration merge into the report of the unsharded exploration", func() {
		impl := plantedImpl{bugs: []string{casefile.StageScoring, casefile.StageSlicing, casefile.StagePlacing, casefile.StagePipeline, "crash"}}
		opts := explore.Options{Seed: 5, Cases: 3000, Coverage: true}
		whole, err := explore.Run(ctx(), impl, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(whole.Divergences)).To(BeNumerically(">=", 4))
		var parts []*explore.Report
		for i := 1; i <= 4; i++ {
			o := opts
			o.Shard = runner.Shard{Index: i, Count: 4}
			r, err := explore.Run(ctx(), impl, o)
			Expect(err).NotTo(HaveOccurred())
			parts = append(parts, throughJSON(r))
		}
		merged, err := explore.MergeReports(parts)
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Cases).To(Equal(whole.Cases))
		Expect(merged.Skipped).To(Equal(whole.Skipped))
		Expect(merged.Coverage).To(Equal(whole.Coverage))
		classes := func(r *explore.Report) map[string]int {
			m := map[string]int{}
			for _, d := range r.Divergences {
				m[d.Class] = d.Index
			}
			return m
		}
		Expect(classes(merged)).To(Equal(classes(whole)), "the same classes, each first found at the same index")
		for i, d := range merged.Divergences {
			Expect(d.Class).To(Equal(whole.Divergences[i].Class), "in the order found")
			Expect(json.Marshal(d.Case.Input)).To(Equal(mustJSON(json.Marshal(whole.Divergences[i].Case.Input))), d.Class)
		}
		Expect(merged.Err().Error()).To(Equal(whole.Err().Error()))
	})
})

func mustJSON(b []byte, err error) []byte {
	GinkgoHelper()
	Expect(err).NotTo(HaveOccurred())
	return b
}
