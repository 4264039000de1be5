package slicer_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// Literal transcriptions of the spec's pseudocode (QUOTA-SLICE,
// COUNT-QUOTA-SLICE, COUNT-KNAPSACK-CAP), written for clarity, not speed,
// to check the optimised implementations item for item. They assume
// non-nil items with tokens >= 0, as the spec does. GREEDY-SLICE and
// KNAPSACK-SLICE are the production GreedySlice.Slice and
// KnapsackSlice.Slice, which these use as inner slicers.

func slRefLess(a, b float64) bool { // a sorts before b: descending, NaN last
	if math.IsNaN(a) || math.IsNaN(b) {
		return !math.IsNaN(a) && math.IsNaN(b)
	}
	return a > b
}

type slRefQuota struct {
	kind         string
	require, cap float64
}

func slRefQuotaSlice(scored []cupel.ScoredItem, target int, quotas []slRefQuota, inner func([]cupel.ScoredItem, int, int) []*cupel.ContextItem) []*cupel.ContextItem {
	if len(scored) == 0 || target <= 0 {
		return []*cupel.ContextItem{}
	}
	fold := func(k cupel.ContextKind) string { return strings.ToLower(string(k)) } // ASCII kinds only here
	var order []string
	parts := map[string][]cupel.ScoredItem{}
	for _, si := range scored {
		k := fold(si.Item.Kind())
		if _, ok := parts[k]; !ok {
			order = append(order, k)
		}
		parts[k] = append(parts[k], si)
	}
	mass := map[string]int{}
	for k, items := range parts {
		for _, si := range items {
			mass[k] += si.Item.Tokens()
		}
	}
	req, capT := map[string]int{}, map[string]int{}
	getCap := map[string]float64{}
	for _, q := range quotas {
		req[q.kind] = int(math.Floor(q.require / 100.0 * float64(target)))
		capT[q.kind] = int(math.Floor(q.cap / 100.0 * float64(target)))
		getCap[q.kind] = q.cap
	}
	totalRequired := 0
	for _, r := range req {
		totalRequired += r
	}
	unassigned := max(0, target-totalRequired)
	capOf := func(k string) int {
		if c, ok := capT[k]; ok {
			return c
		}
		return target
	}
	totalMass := 0
	for _, k := range order {
		if capOf(k) > req[k] {
			totalMass += mass[k]
		}
	}
	budgets := map[string]int{}
	for _, k := range order {
		prop := 0
		if totalMass > 0 && capOf(k) > req[k] {
			p := new(big.Int).Mul(big.NewInt(int64(unassigned)), big.NewInt(int64(mass[k])))
			prop = int(p.Div(p, big.NewInt(int64(totalMass))).Int64())
		}
		budgets[k] = min(req[k]+prop, capOf(k))
	}
	all := []*cupel.ContextItem{}
	for _, k := range order {
		kb := budgets[k]
		if kb <= 0 {
			continue
		}
		c, ok := getCap[k]
		if !ok {
			c = 100
		}
		capTokens := int(math.Floor(c / 100.0 * float64(target)))
		all = append(all, inner(parts[k], capTokens, kb)...)
	}
	return all
}

type slRefEntry struct {
	kind         string
	require, cap int
}

func slRefCountQuota(scored []cupel.ScoredItem, maxT, target int, entries []slRefEntry, inner func([]cupel.ScoredItem, int, int) []*cupel.ContextItem, resort bool) ([]*cupel.ContextItem, []string, []cupel.CountRequirementShortfall) {
	if len(scored) == 0 || target <= 0 {
		return []*cupel.ContextItem{}, nil, nil
	}
	fold := func(k cupel.ContextKind) string { return strings.ToLower(string(k)) }
	entryBy := map[string]slRefEntry{}
	for _, e := range entries {
		entryBy[e.kind] = e
	}
	parts := map[string][]cupel.ScoredItem{}
	for _, si := range scored {
		k := fold(si.Item.Kind())
		parts[k] = append(parts[k], si)
	}
	for k := range parts {
		p := parts[k]
		sort.SliceStable(p, func(i, j int) bool { return slRefLess(p[i].Score, p[j].Score) })
	}
	var committed []*cupel.ContextItem
	set := map[*cupel.ContextItem]bool{}
	count := map[string]int{}
	pre := 0
	var shortfalls []cupel.CountRequirementShortfall
	for _, e := range entries {
		if e.require == 0 {
			continue
		}
		sat := 0
		for _, c := range parts[e.kind] {
			if sat >= e.require {
				break
			}
			committed = append(committed, c.Item)
			set[c.Item] = true
			pre += c.Item.Tokens()
			sat++
		}
		count[e.kind] = sat
		if sat < e.require {
			shortfalls = append(shortfalls, cupel.CountRequirementShortfall{Kind: cupel.ContextKind(e.kind), RequiredCount: e.require, SatisfiedCount: sat})
		}
	}
	var residual []cupel.ScoredItem
	for _, si := range scored {
		if !set[si.Item] {
			residual = append(residual, si)
		}
	}
	rt := max(0, target-pre)
	sel := inner(residual, maxT, min(rt, maxT))
	if resort {
		score := map[*cupel.ContextItem]float64{}
		pos := map[*cupel.ContextItem]int{}
		for i, si := range residual {
			score[si.Item], pos[si.Item] = si.Score, i
		}
		sort.SliceStable(sel, func(i, j int) bool {
			a, b := score[sel[i]], score[sel[j]]
			if slRefLess(a, b) {
				return true
			}
			if slRefLess(b, a) {
				return false
			}
			return pos[sel[i]] < pos[sel[j]]
		})
	}
	result := append([]*cupel.ContextItem{}, committed...)
	var capped []string
	for _, it := range sel {
		k := fold(it.Kind())
		e, ok := entryBy[k]
		if ok && count[k] >= e.cap {
			capped = append(capped, it.Content())
			continue
		}
		result = append(result, it)
		count[k]++
	}
	return result, capped, shortfalls
}

func slRandomCandidates(r *rand.Rand, n int) []cupel.ScoredItem {
	kinds := []cupel.ContextKind{"a", "A", "b", "c", "C", "d"}
	scores := []float64{0, 0.1, 0.25, 0.25, 0.5, 0.75, 0.9, 1, math.NaN(), -0.2}
	in := make([]cupel.ScoredItem, n)
	for i := range in {
		tok := r.IntN(120)
		if r.IntN(8) == 0 {
			tok = 0
		}
		in[i] = cupel.ScoredItem{
			Item:  cupel.MustItem(cupel.ItemSpec{Content: string(rune('a'+i%26)) + string(rune('0'+i/26)), Tokens: tok, Kind: kinds[r.IntN(len(kinds))]}),
			Score: scores[r.IntN(len(scores))],
		}
	}
	return in
}

func slSamePointers(a, b []*cupel.ContextItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var _ = Describe("slicers against literal transcriptions of the spec pseudocode", func() {
	greedyInner := func(items []cupel.ScoredItem, _ int, target int) []*cupel.ContextItem {
		out, err := slicer.NewGreedy().Slice(items, slTarget(target))
		Expect(err).NotTo(HaveOccurred())
		return out
	}

	It("QuotaSlice", func() {
		r := rand.New(rand.NewPCG(23, 24))
		for trial := 0; trial < 1000; trial++ {
			var ref []slRefQuota
			var es []slicer.QuotaEntry
			left := 100.0
			for _, k := range []string{"a", "b", "c"} {
				if r.IntN(2) == 0 {
					continue
				}
				req := math.Floor(r.Float64() * left)
				capP := req + math.Floor(r.Float64()*(100-req))
				left -= req
				ref = append(ref, slRefQuota{k, req, capP})
				es = append(es, slicer.RequireCap(cupel.ContextKind(strings.ToUpper(k)), req, capP))
			}
			q, err := slicer.NewQuota(slQuotas(es...), slicer.NewGreedy())
			Expect(err).NotTo(HaveOccurred())
			in := slRandomCandidates(r, r.IntN(80))
			target := r.IntN(3000)
			got, err := q.Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			want := slRefQuotaSlice(in, target, ref, greedyInner)
			Expect(slSamePointers(got, want)).To(BeTrue(), "trial %d", trial)
		}
	})

	It("CountQuotaSlice and CountConstrainedKnapsackSlice", func() {
		r := rand.New(rand.NewPCG(25, 26))
		for trial := 0; trial < 1000; trial++ {
			var ref []slRefEntry
			var es []slicer.CountQuotaEntry
			for _, k := range []string{"b", "a", "c"} {
				if r.IntN(3) == 0 {
					continue
				}
				capC := r.IntN(5)
				req := 0
				if capC > 0 {
					req = r.IntN(capC + 1)
				}
				ref = append(ref, slRefEntry{k, req, capC})
				es = append(es, slEntry(cupel.ContextKind(k), req, capC))
			}
			in := slRandomCandidates(r, r.IntN(60))
			target := r.IntN(2000)
			maxT := target + r.IntN(2)*r.IntN(500)
			b := slBudget(maxT, target)

			cqs, err := slicer.NewCountQuota(es, slicer.NewGreedy(), slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			res, err := cqs.SliceDetailed(in, b)
			Expect(err).NotTo(HaveOccurred())
			want, capped, short := slRefCountQuota(in, maxT, target, ref, greedyInner, false)
			Expect(slSamePointers(res.Selected, want)).To(BeTrue(), "CQS trial %d", trial)
			var gotCapped []string
			for _, c := range res.CapExcluded {
				gotCapped = append(gotCapped, c.Item.Content())
			}
			Expect(gotCapped).To(Equal(capped), "CQS trial %d", trial)
			Expect(res.Shortfalls).To(Equal(short), "CQS trial %d", trial)

			bucket := []int{1, 10, 100}[r.IntN(3)]
			cck, err := slicer.NewCountConstrainedKnapsack(es, slKnapsack(bucket), slicer.ScarcityDegrade)
			Expect(err).NotTo(HaveOccurred())
			res, err = cck.SliceDetailed(in, b)
			Expect(err).NotTo(HaveOccurred())
			knap := func(items []cupel.ScoredItem, _ int, t int) []*cupel.ContextItem {
				out, err := slKnapsack(bucket).Slice(items, slTarget(t))
				Expect(err).NotTo(HaveOccurred())
				return out
			}
			want, capped, short = slRefCountQuota(in, maxT, target, ref, knap, true)
			Expect(slSamePointers(res.Selected, want)).To(BeTrue(), "CCK trial %d", trial)
			gotCapped = nil
			for _, c := range res.CapExcluded {
				gotCapped = append(gotCapped, c.Item.Content())
			}
			Expect(gotCapped).To(Equal(capped), "CCK trial %d", trial)
			Expect(res.Shortfalls).To(Equal(short), "CCK trial %d", trial)
		}
	})
})
