package slicer_test

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

func slKnapsack(bucket int, opts ...slicer.KnapsackOption) *slicer.Knapsack {
	k, err := slicer.NewKnapsack(bucket, opts...)
	Expect(err).NotTo(HaveOccurred())
	return k
}

// slKnapsackValue is the spec's integer value of a score.
func slKnapsackValue(s float64) int64 {
	v := math.Floor(s * 10000)
	if !(v > 0) {
		return 0
	}
	return int64(v)
}

var _ = Describe("KnapsackSlice", func() {
	Describe("construction", func() {
		It("has the spec defaults", func() {
			k := slKnapsack(slicer.DefaultBucketSize)
			Expect(k.BucketSize()).To(Equal(100))
			Expect(k.TableLimit()).To(Equal(int64(50_000_000)))
			Expect(slicer.DefaultKnapsackTableLimit).To(Equal(int64(50_000_000)))
			Expect(slKnapsack(7, slicer.WithTableLimit(12)).TableLimit()).To(Equal(int64(12)))
			Expect(slKnapsack(7, nil).BucketSize()).To(Equal(7))
		})
		DescribeTable("rejects invalid settings",
			func(bucket int, limit int64, field string) {
				k, err := slicer.NewKnapsack(bucket, slicer.WithTableLimit(limit))
				Expect(k).To(BeNil())
				Expect(errors.Is(err, cupel.ErrInvalidConfig)).To(BeTrue())
				Expect(slField(err)).To(Equal(field))
			},
			Entry("bucketSize 0", 0, int64(10), "bucketSize"),
			Entry("bucketSize < 0", -100, int64(10), "bucketSize"),
			Entry("table limit 0", 100, int64(0), "tableLimit"),
			Entry("table limit < 0", 100, int64(-1), "tableLimit"),
		)
		It("uses the defaults as a zero value and as a nil pointer", func() {
			var z slicer.Knapsack
			Expect(z.BucketSize()).To(Equal(100))
			Expect(z.TableLimit()).To(Equal(slicer.DefaultKnapsackTableLimit))
			var p *slicer.Knapsack
			out, err := p.Slice([]cupel.ScoredItem{slS(slItem("a", 100), 0.5)}, slTarget(100))
			Expect(err).NotTo(HaveOccurred())
			Expect(slContents(out)).To(Equal([]string{"a"}))
		})
	})

	k := slKnapsack(100)
	slice := func(k *slicer.Knapsack, in []cupel.ScoredItem, b cupel.ContextBudget) []string {
		out, err := k.Slice(in, b)
		Expect(err).NotTo(HaveOccurred())
		return slContents(out)
	}

	DescribeTable("edge cases (chapter KnapsackSlice)",
		func(in func() []cupel.ScoredItem, target int, want []string) {
			Expect(slice(k, in(), slTarget(target))).To(Equal(want))
		},
		Entry("empty scoredItems", func() []cupel.ScoredItem { return nil }, 1000, []string{}),
		Entry("targetTokens = 0", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("z", 0), 0.5)}
		}, 0, []string{}),
		Entry("all items zero-token", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 0), 0.1), slS(slItem("b", 0), 0.9)}
		}, 1000, []string{"a", "b"}),
		Entry("capacity = 0 after discretization: only zero-token items", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 10), 0.9), slS(slItem("z", 0), 0.1)}
		}, 99, []string{"z"}),
		Entry("all items exceed the discretized capacity", func() []cupel.ScoredItem {
			// 201 tokens weigh 3 buckets; capacity floor(299/100) = 2.
			return []cupel.ScoredItem{slS(slItem("a", 201), 0.9), slS(slItem("z", 0), 0.1), slS(slItem("b", 250), 0.8)}
		}, 299, []string{"z"}),
		Entry("single candidate fits, plus the zero-token items", func() []cupel.ScoredItem {
			return []cupel.ScoredItem{slS(slItem("a", 150), 0.9), slS(slItem("z", 0), 0.1)}
		}, 200, []string{"z", "a"}),
	)

	It("puts zero-token items first, then the DP selection in reconstruction (reverse) order", func() {
		in := []cupel.ScoredItem{
			slS(slItem("a", 100), 0.9),
			slS(slItem("z1", 0), 0.1),
			slS(slItem("b", 100), 0.8),
			slS(slItem("c", 100), 0.7),
			slS(slItem("z2", 0), 0.9),
		}
		Expect(slice(k, in, slTarget(1000))).To(Equal([]string{"z1", "z2", "c", "b", "a"}))
	})

	It("finds the optimum where greedy density would not", func() {
		in := []cupel.ScoredItem{
			slS(slItem("dense", 100), 0.5), // density 0.005
			slS(slItem("x", 150), 0.6),     // 0.004
			slS(slItem("y", 150), 0.6),
		}
		// Greedy takes dense (100) then x (150) = 250, value 1.1; the
		// optimum for 300 is x + y, value 1.2.
		g, _ := slicer.NewGreedy().Slice(in, slTarget(300))
		Expect(slContents(g)).To(Equal([]string{"dense", "x"}))
		Expect(slice(slKnapsack(50), in, slTarget(300))).To(Equal([]string{"y", "x"}))
	})

	It("breaks ties with the strict withItem > dp[w] comparison", func() {
		// a and b have equal value and weight; capacity holds one. a sets
		// dp[1]; b does not strictly improve it, so a is kept.
		in := []cupel.ScoredItem{slS(slItem("a", 100), 0.5), slS(slItem("b", 100), 0.5)}
		Expect(slice(k, in, slTarget(100))).To(Equal([]string{"a"}))
		// A later item with a strictly larger value replaces it.
		in = append(in, slS(slItem("c", 100), 0.5001))
		Expect(slice(k, in, slTarget(100))).To(Equal([]string{"c"}))
	})

	It("never keeps items of value 0 (score < 0.0001, negative or NaN)", func() {
		in := []cupel.ScoredItem{
			slS(slItem("tiny", 100), 0.00009),
			slS(slItem("neg", 100), -0.5),
			slS(slItem("nan", 100), math.NaN()),
			slS(slItem("ok", 100), 0.0001),
		}
		Expect(slice(k, in, slTarget(1000))).To(Equal([]string{"ok"}))
	})

	It("discretizes weights with ceiling and capacity with floor", func() {
		// capacity floor(250/100) = 2; a (101 tokens) weighs 2, b (100) 1, c (1) 1.
		in := []cupel.ScoredItem{slS(slItem("a", 101), 0.9), slS(slItem("b", 100), 0.5), slS(slItem("c", 1), 0.35)}
		Expect(slice(k, in, slTarget(250))).To(Equal([]string{"a"})) // 9000 > 5000 + 3500
		in = []cupel.ScoredItem{slS(slItem("a", 101), 0.9), slS(slItem("b", 100), 0.5), slS(slItem("c", 1), 0.45)}
		Expect(slice(k, in, slTarget(250))).To(Equal([]string{"c", "b"})) // 5000 + 4500 > 9000
	})

	It("never selects items with negative tokens and skips nil items", func() {
		in := []cupel.ScoredItem{slS(slItem("neg", -100), 0.9), {Item: nil, Score: 1}, slS(slItem("a", 100), 0.1)}
		Expect(slice(k, in, slTarget(100))).To(Equal([]string{"a"}))
	})

	It("treats huge and infinite scores without overflow", func() {
		in := []cupel.ScoredItem{
			slS(slItem("inf", 100), math.Inf(1)),
			slS(slItem("huge", 100), 1e300),
			slS(slItem("one", 100), 1),
		}
		out := slice(k, in, slTarget(300))
		Expect(out).To(ConsistOf("inf", "huge", "one"))
	})

	Describe("table guard (ruling 19)", func() {
		in := []cupel.ScoredItem{
			slS(slItem("a", 1), 0.9), slS(slItem("b", 2), 0.8), slS(slItem("c", 3), 0.7), slS(slItem("z", 0), 0.1),
		}
		It("builds a table of exactly the limit (3 candidates x capacity 4 = 12 cells)", func() {
			ks := slKnapsack(1, slicer.WithTableLimit(12))
			Expect(slice(ks, in, slTarget(4))).To(Equal([]string{"z", "b", "a"})) // 1.7 beats a+c 1.6
		})
		It("refuses a table one cell over the limit, naming candidates, capacity and cells", func() {
			ks := slKnapsack(1, slicer.WithTableLimit(11))
			out, err := ks.Slice(in, slTarget(4))
			Expect(out).To(BeNil())
			Expect(errors.Is(err, cupel.ErrTableTooLarge)).To(BeTrue())
			var tl *slicer.TableTooLargeError
			Expect(errors.As(err, &tl)).To(BeTrue())
			Expect(*tl).To(Equal(slicer.TableTooLargeError{Candidates: 3, Capacity: 4, Cells: 12, Limit: 11}))
			Expect(err.Error()).To(ContainSubstring("3 candidates x 4 capacity = 12 cells"))
		})
		It("counts every positive-token candidate, valued or not, and uses the spec capacity", func() {
			// Only one item could ever be kept, but the guard is on candidates x capacity.
			in := []cupel.ScoredItem{slS(slItem("a", 1), 0.9), slS(slItem("b", 1000), 0.8), slS(slItem("c", 3), 0)}
			_, err := slKnapsack(1, slicer.WithTableLimit(29)).Slice(in, slTarget(10))
			Expect(errors.Is(err, cupel.ErrTableTooLarge)).To(BeTrue())
			Expect(slice(slKnapsack(1, slicer.WithTableLimit(30)), in, slTarget(10))).To(Equal([]string{"a"}))
		})
		It("refuses an over-limit table with the default limit without allocating it", func() {
			items := []cupel.ScoredItem{slS(slItem("a", 1), 0.9), slS(slItem("b", 1), 0.8)}
			// 2 candidates x 25,000,001 = 50,000,002 cells (bucket 1, so
			// that the target fits a 32-bit int).
			b := slTarget(25_000_001)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := slKnapsack(1).Slice(items, b)
			runtime.ReadMemStats(&after)
			var tl *slicer.TableTooLargeError
			Expect(errors.As(err, &tl)).To(BeTrue())
			Expect(tl.Cells).To(Equal(int64(50_000_002)))
			Expect(tl.Limit).To(Equal(slicer.DefaultKnapsackTableLimit))
			Expect(after.TotalAlloc - before.TotalAlloc).To(BeNumerically("<", 1<<16))
		})
		It("accepts a table of exactly the default limit", func() {
			items := []cupel.ScoredItem{slS(slItem("a", 1), 0.9)}
			Expect(slice(slKnapsack(1), items, slTarget(50_000_000))).To(Equal([]string{"a"}))
		})
		It("reports cells exactly, or as MaxInt64 when they overflow int64", func() {
			items := []cupel.ScoredItem{slS(slItem("a", 1), 0.9), slS(slItem("b", 1), 0.9)}
			_, err := slKnapsack(1).Slice(items, slTarget(math.MaxInt))
			var tl *slicer.TableTooLargeError
			Expect(errors.As(err, &tl)).To(BeTrue())
			// 2 x MaxInt overflows int64 where int has 64 bits, not where it has 32.
			cells, want := new(big.Int).Mul(big.NewInt(2), big.NewInt(math.MaxInt)), int64(math.MaxInt64)
			if cells.IsInt64() {
				want = cells.Int64()
			}
			Expect(tl.Cells).To(Equal(want))
		})
	})

	It("reaches the exact optimum with bucket 1 (brute force on random instances)", func() {
		r := rand.New(rand.NewPCG(7, 11))
		k1 := slKnapsack(1)
		for trial := 0; trial < 300; trial++ {
			n := 1 + r.IntN(12)
			in := make([]cupel.ScoredItem, n)
			for i := range in {
				in[i] = slS(slItem("i", r.IntN(40)), math.Round(r.Float64()*100)/100)
			}
			target := r.IntN(120)
			out, err := k1.Slice(in, slTarget(target))
			Expect(err).NotTo(HaveOccurred())
			got, tokens := int64(0), 0
			chosen := map[*cupel.ContextItem]bool{}
			for _, it := range out {
				Expect(chosen[it]).To(BeFalse())
				chosen[it] = true
				tokens += it.Tokens()
			}
			for _, si := range in {
				if chosen[si.Item] {
					got += slKnapsackValue(si.Score)
				}
			}
			best := int64(0)
			if target > 0 {
				for mask := 0; mask < 1<<n; mask++ {
					v, t := int64(0), 0
					for i := 0; i < n; i++ {
						if mask&(1<<i) != 0 {
							v += slKnapsackValue(in[i].Score)
							t += in[i].Item.Tokens()
						}
					}
					if t <= target && v > best {
						best = v
					}
				}
			}
			Expect(got).To(Equal(best), "trial %d", trial)
			if target > 0 {
				Expect(tokens).To(BeNumerically("<=", target))
				for _, si := range in { // zero-token items always included
					if si.Item.Tokens() == 0 {
						Expect(chosen[si.Item]).To(BeTrue())
					}
				}
			}
		}
	})
})
