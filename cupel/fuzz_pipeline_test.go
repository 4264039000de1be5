package cupel_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
)

// fzReader decodes fuzz input bytes into choices. An exhausted input reads
// as zeros, so every input, the empty one included, decodes to something.
type fzReader struct{ b []byte }

func (r *fzReader) u8() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// n returns a choice in [0, k).
func (r *fzReader) n(k int) int {
	if k <= 1 {
		return 0
	}
	if k <= 256 {
		return int(r.u8()) % k
	}
	return int((uint(r.u8())<<8 | uint(r.u8())) % uint(k))
}

func (r *fzReader) u64() uint64 {
	var v uint64
	for range 8 {
		v = v<<8 | uint64(r.u8())
	}
	return v
}

func (r *fzReader) pick(vs []float64) float64 { return vs[r.n(len(vs))] }

// pickOr picks from valid, or with probability 1/16 from invalid.
func (r *fzReader) pickOr(valid, invalid []float64) float64 {
	if r.n(16) == 0 {
		return r.pick(invalid)
	}
	return r.pick(valid)
}

// tokens returns a token count anywhere in the int range, small
// non-negative counts being the most likely.
func (r *fzReader) tokens() int {
	switch r.n(64) {
	case 0, 1, 2, 3, 4, 5:
		return 0
	case 6, 7, 8:
		return -1 - r.n(100)
	case 9:
		return math.MaxInt
	case 10:
		return math.MinInt
	case 11:
		return math.MaxInt/2 + r.n(3) - 1
	case 12:
		return math.MaxInt/3 + 1
	case 13:
		return int(r.u64())
	case 14:
		return 1<<(40+r.n(22)) + r.n(1024) - 512
	case 15, 16, 17:
		return 1000 + r.n(256)*100
	default:
		return r.n(120)
	}
}

// budgetInt returns a budget field, usually small, sometimes extreme.
func (r *fzReader) budgetInt() int {
	switch r.n(32) {
	case 0:
		return 0
	case 1:
		return -1 - r.n(10)
	case 2:
		return math.MaxInt
	case 3:
		return math.MaxInt - r.n(3)
	case 4:
		return int(r.u64() >> 1)
	case 5:
		return 1 << (40 + r.n(23))
	case 6, 7:
		return 1000 + r.n(256)*50
	default:
		return r.n(400)
	}
}

const fzKelvin = "\u212a" // KELVIN SIGN: not "K" under ASCII case folding

var (
	fzKinds    = []cupel.ContextKind{"", "Message", "message", "Document", "ToolOutput", "Memory", "SystemPrompt", "K", "k", fzKelvin, "Ünïcödé"}
	fzContents = []string{"a", "b", "c", "A", "a ", fzKelvin, "K", "ẞ", "\x00", "dup"}
	fzTags     = []string{"a", "A", "k", "K", fzKelvin, "", "topic", "TOPIC"}
	fzHints    = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.5, 0, math.Copysign(0, -1), 0.3, 0.3, 1, 2, math.MaxFloat64, math.SmallestNonzeroFloat64}
	fzWeights  = []float64{1, 1, 2, 0.25, 3, 1e-300, 1e300}
	fzKindWts  = []float64{0, 0.5, 1, 2.5, 1e308}
	fzPercents = []float64{0, 10, 25, 33.3, 50, 50.000000000000007, 66.7, 100}
	fzRequires = []float64{0, 0, 10, 25, 33.3, 50, 50.000000000000007}
	fzMargins  = []float64{0, 0, 0, 10, 50, 99.9, 100, 0.000001}
	fzBadNums  = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 101} // some invalid for each use
	fz01       = []float64{0, 0.25, 0.5, 1, math.Copysign(0, -1)}
	fzT0       = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	fzClock    = scorer.ClockFunc(func() time.Time { return fzT0 })
)

// fzConfig is what the decoder knows about the policy it built, for the
// invariants that depend on it.
type fzConfig struct {
	hasKnapsack   bool // some (nested) slicer builds a knapsack table
	hasThrowCount bool // some count slicer has ScarcityThrow
	hasCount      bool // some count slicer
	nestedCount   bool // a count slicer below another slicer
	reqKinds      []cupel.ContextKind
}

func (c *fzConfig) required(k cupel.ContextKind) bool {
	for _, r := range c.reqKinds {
		if r.Equal(k) {
			return true
		}
	}
	return false
}

// fzScorer builds a random built-in scorer; construction errors are returned.
func fzScorer(r *fzReader, depth int) (cupel.Scorer, error) {
	kinds := 11
	if depth >= 3 {
		kinds = 9 // no composite or scaled below depth 3
	}
	switch r.n(kinds) {
	case 0:
		return scorer.NewRecency(), nil
	case 1:
		return scorer.NewPriority(), nil
	case 2:
		if r.n(2) == 0 {
			return scorer.NewDefaultKind(), nil
		}
		w := map[cupel.ContextKind]float64{}
		for range 1 + r.n(3) {
			w[fzKinds[1+r.n(len(fzKinds)-1)]] = r.pickOr(fzKindWts, fzBadNums)
		}
		return scorer.NewKind(w)
	case 3:
		w := map[string]float64{}
		for range r.n(4) {
			w[fzTags[r.n(len(fzTags))]] = r.pickOr(fzKindWts, fzBadNums)
		}
		return scorer.NewTag(w)
	case 4:
		return scorer.NewFrequency(), nil
	case 5:
		return scorer.NewReflexive(), nil
	case 6:
		var curve scorer.DecayCurve
		var err error
		switch r.n(3) {
		case 0:
			curve, err = scorer.NewExponentialCurve(time.Duration(1+r.n(48)) * time.Hour)
		case 1:
			curve, err = scorer.NewWindowCurve(time.Duration(r.n(48)) * time.Hour)
		default:
			curve, err = scorer.NewStepCurve(scorer.StepWindow{MaxAge: time.Hour, Score: r.pickOr(fz01, fzBadNums)}, scorer.StepWindow{MaxAge: time.Duration(1+r.n(72)) * time.Hour, Score: 0.25})
		}
		if err != nil {
			return nil, err
		}
		return scorer.NewDecay(fzClock, curve, scorer.WithNullTimestampScore(r.pickOr(fz01, fzBadNums)))
	case 7:
		return scorer.NewMetadataTrust(r.pickOr(fz01, fzBadNums))
	case 8:
		return scorer.NewMetadataKey("cupel:priority", []string{"high", "1.5", ""}[r.n(3)], r.pickOr(fzWeights, fzBadNums))
	case 9:
		var entries []scorer.Weighted
		for range 1 + r.n(3) {
			child, err := fzScorer(r, depth+1)
			if err != nil {
				return nil, err
			}
			entries = append(entries, scorer.Weighted{Scorer: child, Weight: r.pickOr(fzWeights, fzBadNums)})
		}
		return scorer.NewComposite(entries...)
	default:
		inner, err := fzScorer(r, depth+1)
		if err != nil {
			return nil, err
		}
		return scorer.NewScaled(inner)
	}
}

func fzKnapsack(r *fzReader, cfg *fzConfig) (*slicer.Knapsack, error) {
	cfg.hasKnapsack = true
	bucket := []int{1, 2, 7, 10, 100, 1, 2, 7, 10, 100, 3, 5, 13, 50, 1000, 0}[r.n(16)]
	limits := []int64{0, 1, 50, 1000, 100_000}
	var opts []slicer.KnapsackOption
	if l := limits[r.n(len(limits))]; l > 0 {
		opts = append(opts, slicer.WithTableLimit(l))
	}
	return slicer.NewKnapsack(bucket, opts...)
}

func fzCountEntries(r *fzReader, cfg *fzConfig, nested bool) ([]slicer.CountQuotaEntry, slicer.ScarcityBehavior, error) {
	cfg.hasCount = true
	cfg.nestedCount = cfg.nestedCount || nested
	var es []slicer.CountQuotaEntry
	for range r.n(4) {
		req := r.n(4)
		cp := req + r.n(3)
		if r.n(16) == 0 {
			cp = req - 1 // invalid (or 0 with req 1)
		}
		e, err := slicer.NewCountQuotaEntry(fzKinds[1+r.n(len(fzKinds)-1)], req, cp)
		if err != nil {
			return nil, 0, err
		}
		if req > 0 {
			cfg.reqKinds = append(cfg.reqKinds, e.Kind())
		}
		es = append(es, e)
	}
	sc := slicer.ScarcityDegrade
	if r.n(3) == 0 {
		sc = slicer.ScarcityThrow
		cfg.hasThrowCount = true
	}
	return es, sc, nil
}

// fzSlicer builds a random built-in slicer; construction errors are returned.
func fzSlicer(r *fzReader, cfg *fzConfig, depth int) (cupel.Slicer, error) {
	n := 5
	if depth >= 2 {
		n = 2
	}
	switch r.n(n) {
	case 0:
		return slicer.NewGreedy(), nil
	case 1:
		return fzKnapsack(r, cfg)
	case 2:
		var qs []slicer.QuotaEntry
		for range r.n(4) {
			k := fzKinds[1+r.n(len(fzKinds)-1)]
			req := r.pickOr(fzRequires, fzBadNums)
			switch r.n(3) {
			case 0:
				qs = append(qs, slicer.Require(k, req))
			case 1:
				qs = append(qs, slicer.Cap(k, r.pickOr(fzPercents, fzBadNums)))
			default:
				qs = append(qs, slicer.RequireCap(k, req, max(req, r.pickOr(fzPercents, fzBadNums))))
			}
		}
		set, err := slicer.NewQuotaSet(qs...)
		if err != nil {
			return nil, err
		}
		var inner cupel.Slicer
		switch r.n(3) {
		case 0:
			inner = slicer.NewGreedy()
		case 1:
			inner, err = fzKnapsack(r, cfg)
		default:
			es, sc, err2 := fzCountEntries(r, cfg, true)
			if err2 != nil {
				return nil, err2
			}
			inner, err = slicer.NewCountQuota(es, slicer.NewGreedy(), sc)
		}
		if err != nil {
			return nil, err
		}
		return slicer.NewQuota(set, inner)
	case 3:
		es, sc, err := fzCountEntries(r, cfg, depth > 0)
		if err != nil {
			return nil, err
		}
		var inner cupel.Slicer = slicer.NewGreedy()
		if r.n(16) == 0 {
			if inner, err = fzSlicer(r, cfg, 2); err != nil { // greedy or knapsack (rejected)
				return nil, err
			}
		}
		return slicer.NewCountQuota(es, inner, sc)
	default:
		es, sc, err := fzCountEntries(r, cfg, depth > 0)
		if err != nil {
			return nil, err
		}
		k, err := fzKnapsack(r, cfg)
		if err != nil {
			return nil, err
		}
		return slicer.NewCountConstrainedKnapsack(es, k, sc)
	}
}

// fzItems decodes the candidate items: token counts anywhere in the int
// range, kinds from a small pool with non-ASCII ones, duplicate content and
// duplicate pointers, absent or extreme optional fields, NaN and infinite
// hints, pinned items and, rarely, a nil entry.
func fzItems(r *fzReader) []*cupel.ContextItem {
	n := r.n(25)
	items := make([]*cupel.ContextItem, 0, n)
	for i := 0; i < n; i++ {
		if len(items) > 0 && r.n(8) == 0 {
			items = append(items, items[r.n(len(items))]) // the same pointer again
			continue
		}
		if r.n(256) == 0 && r.n(2) == 0 {
			items = append(items, nil)
			continue
		}
		spec := cupel.ItemSpec{Tokens: r.tokens(), Kind: fzKinds[r.n(len(fzKinds))]}
		if r.n(3) == 0 {
			spec.Content = "u" + strconv.Itoa(i)
		} else {
			spec.Content = fzContents[r.n(len(fzContents))]
		}
		switch r.n(5) {
		case 0:
		case 1:
			spec.Timestamp = cupel.Ptr([]time.Time{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), fzT0.Add(time.Hour)}[r.n(3)])
		default:
			spec.Timestamp = cupel.Ptr(fzT0.Add(-time.Duration(r.n(100)) * time.Hour))
		}
		switch r.n(4) {
		case 0:
		case 1:
			spec.Priority = cupel.Ptr([]int{math.MaxInt, math.MinInt, 0}[r.n(3)])
		default:
			spec.Priority = cupel.Ptr(r.n(7) - 3)
		}
		if r.n(2) == 0 {
			spec.FutureRelevanceHint = cupel.Ptr(r.pick(fzHints))
		}
		for range r.n(4) {
			spec.Tags = append(spec.Tags, fzTags[r.n(len(fzTags))])
		}
		switch r.n(6) {
		case 1:
			spec.Metadata = map[string]any{scorer.MetadataKeyTrust: r.pick(fzHints)}
		case 2:
			spec.Metadata = map[string]any{scorer.MetadataKeyTrust: []string{"0.7", "NaN", "1e400", " 0.5", "0x1p-1", "-inf", ""}[r.n(7)]}
		case 3:
			spec.Metadata = map[string]any{"cupel:priority": []any{"high", 1.5, nil, true}[r.n(4)]}
		}
		spec.Pinned = r.n(10) == 0
		it, err := cupel.NewItem(spec)
		if err != nil {
			panic(fmt.Sprintf("fzItems built an invalid spec: %v", err))
		}
		items = append(items, it)
	}
	return items
}

// fzBudget decodes a budget spec, valid or not, and says what NewBudget must
// do with it: valid is false when a rule of spec chapter 03 (ContextBudget)
// is broken (ErrInvalidBudget); overflow is true when the reserved slots do
// not sum within an int (ErrTokenOverflow; an invalid spec may report either).
func fzBudget(r *fzReader) (spec cupel.BudgetSpec, valid, overflow bool) {
	spec.MaxTokens = r.budgetInt()
	switch r.n(8) {
	case 0:
		spec.TargetTokens = r.budgetInt()
	default:
		if spec.MaxTokens > 0 {
			spec.TargetTokens = spec.MaxTokens / 10 * r.n(11)
		}
	}
	switch r.n(8) {
	case 0:
		spec.OutputReserve = r.budgetInt()
	case 1, 2:
		if spec.MaxTokens > 0 {
			spec.OutputReserve = spec.MaxTokens / (1 + r.n(8))
		}
	}
	if r.n(4) == 0 {
		spec.ReservedSlots = map[cupel.ContextKind]int{}
		for range 1 + r.n(2) {
			k := fzKinds[1+r.n(len(fzKinds)-1)]
			if r.n(64) == 0 {
				k = ""
			}
			if r.n(4) == 0 {
				spec.ReservedSlots[k] = r.budgetInt()
			} else {
				spec.ReservedSlots[k] = r.n(50)
			}
		}
	}
	spec.EstimationSafetyMarginPercent = r.pickOr(fzMargins, fzBadNums)

	m := spec.EstimationSafetyMarginPercent
	valid = spec.MaxTokens >= 0 && spec.TargetTokens >= 0 && spec.TargetTokens <= spec.MaxTokens &&
		spec.OutputReserve >= 0 && spec.OutputReserve <= spec.MaxTokens && m >= 0 && m <= 100
	sum := 0
	var seen []cupel.ContextKind
	for k, v := range spec.ReservedSlots {
		if k == "" || v < 0 {
			valid = false
		}
		for _, s := range seen {
			if s.Equal(k) {
				valid = false
			}
		}
		seen = append(seen, k)
		if v >= 0 {
			if sum > math.MaxInt-v {
				overflow = true
			} else {
				sum += v
			}
		}
	}
	return spec, valid, overflow
}

// fzSameFloat compares scores, NaN equal to NaN.
func fzSameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

// fzCmpDesc orders scores descending, -0.0 equal to +0.0, NaN last.
func fzCmpDesc(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// fzStageRank is the insertion rank of an exclusion (ruling 6).
func fzStageRank(v cupel.ExclusionVariant) int {
	switch v {
	case cupel.ExclusionNegativeTokens:
		return 0
	case cupel.ExclusionDeduplicated:
		return 1
	}
	return 2
}

func fzSentinels() []error {
	return []error{cupel.ErrInvalidItem, cupel.ErrInvalidBudget, cupel.ErrInvalidConfig, cupel.ErrPinnedExceedsBudget,
		cupel.ErrOverflow, cupel.ErrCountRequirementUnmet, cupel.ErrTableTooLarge, cupel.ErrTokenOverflow}
}

func fzIsSentinel(err error) bool {
	for _, s := range fzSentinels() {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzPipeline decodes the input into random items, a random budget and a
// random policy over every built-in scorer (composites and scaled scorers
// nested up to three deep), slicer (greedy, knapsack, quota,
// count_quota, count_constrained_knapsack, knapsacks with small table
// limits) and placer, deduplication on or off and each overflow strategy,
// then runs the pipeline and checks:
//
//   - nothing panics; every error, of construction or of a run, wraps one of
//     the package's sentinels, and the sentinel is one the input allows: an
//     invalid scorer or slicer configuration is ErrInvalidConfig; a budget
//     breaking a rule of spec chapter 03 (ContextBudget) is ErrInvalidBudget
//     and one whose reserved slots overflow int is ErrTokenOverflow; a run
//     fails with ErrInvalidItem iff an item is nil, else ErrTokenOverflow iff
//     the non-negative (or the negative) tokens do not sum within an int, else
//     ErrPinnedExceedsBudget iff the pinned tokens exceed
//     maxTokens - outputReserve (ruling 11); otherwise only
//     ErrOverflow (under Throw, with MergedTokens > targetTokens),
//     ErrTableTooLarge (with a knapsack) and ErrCountRequirementUnmet (with a
//     count slicer under ScarcityThrow) may occur;
//   - the result is a sub-multiset of the input by pointer, holds every
//     pinned non-negative item (as often as it was passed), no negative-token
//     item, scores 1.0 for pinned items, len(Scores) == len(Items) and
//     TotalTokens == the sum of the items' tokens;
//   - token bounds (spec chapters 11 (Stage 5: Slice), 12
//     (Stage 6: Place) and 29 (CountQuotaSlice)): with P the pinned tokens and E the effective target
//     budget.Effective(P).TargetTokens(), the non-pinned tokens are <= E,
//     except that a count slicer's Phase 1 commits regardless of the budget:
//     then they are <= max(E, R) (top-level count slicer) or <= E + R (a count
//     slicer nested in a quota slicer), R being the output's tokens of kinds
//     with requireCount > 0. Hence, without a Phase 1 overshoot, the total is
//     <= maxTokens - outputReserve and, unless P > targetTokens, <=
//     targetTokens. Under Throw a success is always <= targetTokens; under
//     Truncate the total is <= targetTokens unless P > targetTokens, and then
//     only the pinned items are kept; only Proceed keeps an over-target
//     selection, and then Result.Overflow reports total - targetTokens (and is
//     nil otherwise);
//   - with deduplication on, no two non-pinned output items share content
//     (pinned items bypass the Deduplicate stage);
//   - running twice gives the same items, scores, totals and error, and a
//     DryRun gives the same outcome as a Run;
//   - the DryRun report agrees with the result: Included is the result in
//     order with the same scores and reasons Pinned / ZeroToken / Scored
//     (ruling 1); Included and Excluded together are the input
//     multiset; TotalCandidates = len(items); TotalTokensConsidered = the sum
//     of every input token (ruling 5); NegativeTokens exclusions have
//     score 0; Excluded is sorted by score descending, NaN last, ties in stage
//     order Classify, Deduplicate, Slice/Place (ruling 6); every
//     reason is one a built-in stage gives, with consistent fields
//     (Deduplicated only with deduplication on, against the item's own
//     content; BudgetExceeded with the item's tokens and available >= 0;
//     PinnedOverride displaced by the first pinned item in input order,
//     ruling 2; CountCapExceeded only from a count slicer, with
//     count >= cap); the report's shortfalls are the result's;
//   - the scores of non-pinned output items are those of the per-item Scorer
//     definition over the scoreable items (non-negative, not pinned, in input
//     order), and the batch scoring path equals the per-item path for every
//     item; both are checked when there are at most 16 scoreable items.
func FuzzPipeline(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fzCheckPipeline(t, data)
	})
}

func fzCheckPipeline(t *testing.T, data []byte) {
	r := &fzReader{b: data}
	var cfg fzConfig

	// Policy.
	scorer, err := fzScorer(r, 0)
	if err != nil {
		if !errors.Is(err, cupel.ErrInvalidConfig) {
			t.Fatalf("scorer construction: error %v does not wrap ErrInvalidConfig", err)
		}
		return
	}
	slicer, err := fzSlicer(r, &cfg, 0)
	if err != nil {
		if !errors.Is(err, cupel.ErrInvalidConfig) {
			t.Fatalf("slicer construction: error %v does not wrap ErrInvalidConfig", err)
		}
		return
	}
	var pl cupel.Placer = placer.NewChronological()
	if r.n(2) == 0 {
		pl = placer.NewUShaped()
	}
	policy := cupel.Policy{Scorer: scorer, Slicer: slicer, Placer: pl, DisableDeduplication: r.n(2) == 0, Overflow: cupel.OverflowStrategy(r.n(3))}
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		t.Fatalf("NewPipeline: %v", err)
	}

	// Budget.
	bspec, valid, overflow := fzBudget(r)
	budget, err := cupel.NewBudget(bspec)
	switch {
	case !valid:
		if !errors.Is(err, cupel.ErrInvalidBudget) && !(overflow && errors.Is(err, cupel.ErrTokenOverflow)) {
			t.Fatalf("NewBudget(%+v) = %v, want ErrInvalidBudget", bspec, err)
		}
		return
	case overflow:
		if !errors.Is(err, cupel.ErrTokenOverflow) {
			t.Fatalf("NewBudget(%+v) = %v, want ErrTokenOverflow", bspec, err)
		}
		return
	case err != nil:
		t.Fatalf("NewBudget(%+v) = %v, want a budget", bspec, err)
	}

	items := fzItems(r)
	fzCheckRun(t, p, &cfg, items, budget)
}

// fzCheckRun runs p on items and budget and checks every invariant of
// FuzzPipeline on the outcome.
func fzCheckRun(t *testing.T, p *cupel.Pipeline, cfg *fzConfig, items []*cupel.ContextItem, budget cupel.ContextBudget) {
	policy := p.Config()
	res, err := p.Run(items, budget)
	res2, err2 := p.Run(items, budget)
	dres, rep, derr := dryRun(p, items, budget)
	if (err == nil) != (err2 == nil) || (err == nil) != (derr == nil) {
		t.Fatalf("runs disagree: Run %v, Run again %v, DryRun %v", err, err2, derr)
	}
	if err != nil {
		if err.Error() != err2.Error() || err.Error() != derr.Error() {
			t.Fatalf("runs disagree: Run %v, Run again %v, DryRun %v", err, err2, derr)
		}
	}

	// The expected error, computed independently.
	hasNil, sumOverflow := false, false
	pos, neg, pinnedTokens := 0, 0, 0
	inCount := map[*cupel.ContextItem]int{}
	pinnedCount := map[*cupel.ContextItem]int{}
	for _, it := range items {
		if it == nil {
			hasNil = true
			continue
		}
		inCount[it]++
		tk := it.Tokens()
		if tk >= 0 {
			if pos > math.MaxInt-tk {
				sumOverflow = true
			}
			pos += tk
			if it.Pinned() {
				pinnedTokens += tk
				pinnedCount[it]++
			}
		} else {
			if neg < math.MinInt-tk {
				sumOverflow = true
			}
			neg += tk
		}
	}
	avail := budget.MaxTokens() - budget.OutputReserve()
	target := budget.TargetTokens()
	switch {
	case hasNil || sumOverflow:
		if err == nil || !(errors.Is(err, cupel.ErrInvalidItem) && hasNil || errors.Is(err, cupel.ErrTokenOverflow) && sumOverflow) {
			t.Fatalf("nil item %v / token sum overflow %v: got %v", hasNil, sumOverflow, err)
		}
		return
	case pinnedTokens > avail:
		if !errors.Is(err, cupel.ErrPinnedExceedsBudget) {
			t.Fatalf("pinned tokens %d > %d: got %v, want ErrPinnedExceedsBudget", pinnedTokens, avail, err)
		}
		return
	case err != nil:
		if !fzIsSentinel(err) {
			t.Fatalf("error %v wraps no sentinel", err)
		}
		var oe *cupel.OverflowError
		switch {
		case errors.As(err, &oe):
			if policy.Overflow != cupel.OverflowThrow || oe.TargetTokens != target || oe.MergedTokens <= target {
				t.Fatalf("overflow error %v under %v, target %d", err, policy.Overflow, target)
			}
		case errors.Is(err, cupel.ErrTableTooLarge) && cfg.hasKnapsack:
		case errors.Is(err, cupel.ErrCountRequirementUnmet) && cfg.hasThrowCount:
		default:
			t.Fatalf("unexpected error %v", err)
		}
		return
	}

	// Determinism.
	fzSameResult(t, "second Run", res, res2)
	fzSameResult(t, "DryRun", res, dres)

	// Subset, pinned, negative tokens, scores, totals.
	if len(res.Scores) != len(res.Items) {
		t.Fatalf("%d scores for %d items", len(res.Scores), len(res.Items))
	}
	outCount := map[*cupel.ContextItem]int{}
	total, nonPinned, reqTokens := 0, 0, 0
	seen := map[string]bool{}
	for i, it := range res.Items {
		if it == nil {
			t.Fatalf("nil item in the output")
		}
		outCount[it]++
		if outCount[it] > inCount[it] {
			t.Fatalf("output item %q (%p) appears %d times, in the input %d times", it.Content(), it, outCount[it], inCount[it])
		}
		if it.Tokens() < 0 {
			t.Fatalf("negative-token item %q in the output", it.Content())
		}
		total += it.Tokens()
		if it.Pinned() {
			if res.Scores[i] != 1.0 {
				t.Fatalf("pinned item %q scored %v, want 1.0", it.Content(), res.Scores[i])
			}
			continue
		}
		nonPinned += it.Tokens()
		if cfg.required(it.Kind()) {
			reqTokens += it.Tokens()
		}
		if !policy.DisableDeduplication {
			if seen[it.Content()] {
				t.Fatalf("content %q selected twice with deduplication on", it.Content())
			}
			seen[it.Content()] = true
		}
	}
	for it, n := range pinnedCount {
		if outCount[it] != n {
			t.Fatalf("pinned item %q passed %d times, output %d times", it.Content(), n, outCount[it])
		}
	}
	if total != res.TotalTokens {
		t.Fatalf("TotalTokens %d, items sum to %d", res.TotalTokens, total)
	}

	// Token bounds.
	eff := budget.Effective(pinnedTokens).TargetTokens()
	bound := eff
	if cfg.hasCount {
		if cfg.nestedCount {
			bound = eff + min(reqTokens, math.MaxInt-eff) // saturating
		} else {
			bound = max(eff, reqTokens)
		}
	}
	if nonPinned > bound {
		t.Fatalf("non-pinned tokens %d exceed the bound %d (effective target %d, required-kind tokens %d)", nonPinned, bound, eff, reqTokens)
	}
	overshoot := nonPinned > eff
	if !overshoot {
		if total > avail {
			t.Fatalf("total %d exceeds maxTokens - outputReserve = %d", total, avail)
		}
		if pinnedTokens <= target && total > target {
			t.Fatalf("total %d exceeds the target %d without a Phase 1 overshoot", total, target)
		}
	}
	switch policy.Overflow {
	case cupel.OverflowThrow:
		if total > target {
			t.Fatalf("Throw returned %d tokens over the target %d", total, target)
		}
	case cupel.OverflowTruncate:
		if total > target && (pinnedTokens <= target || total != pinnedTokens) {
			t.Fatalf("Truncate returned %d tokens for the target %d with %d pinned", total, target, pinnedTokens)
		}
	}
	if total > target {
		if policy.Overflow != cupel.OverflowProceed && policy.Overflow != cupel.OverflowTruncate {
			t.Fatalf("over target under %v", policy.Overflow)
		}
		if policy.Overflow == cupel.OverflowProceed && (res.Overflow == nil || res.Overflow.TokensOverBudget != total-target) {
			t.Fatalf("Proceed over target by %d: overflow event %+v", total-target, res.Overflow)
		}
	}
	if res.Overflow != nil && (policy.Overflow != cupel.OverflowProceed || total <= target) {
		t.Fatalf("overflow event %+v with total %d, target %d, %v", res.Overflow, total, target, policy.Overflow)
	}
	if len(res.Shortfalls) > 0 && !cfg.hasCount {
		t.Fatalf("shortfalls %v without a count slicer", res.Shortfalls)
	}

	// Scores against the per-item definition.
	var scoreable []*cupel.ContextItem
	for _, it := range items {
		if it.Tokens() >= 0 && !it.Pinned() {
			scoreable = append(scoreable, it)
		}
	}
	if len(scoreable) <= 16 {
		ref := map[*cupel.ContextItem]float64{}
		batch := make([]float64, len(scoreable))
		cupel.ScoreBatch(policy.Scorer, scoreable, batch)
		for i, it := range scoreable {
			s := policy.Scorer.Score(it, scoreable)
			if !fzSameFloat(s, batch[i]) {
				t.Fatalf("item %d %q: batch score %v, per-item score %v", i, it.Content(), batch[i], s)
			}
			ref[it] = s
		}
		for i, it := range res.Items {
			if !it.Pinned() && !fzSameFloat(res.Scores[i], ref[it]) {
				t.Fatalf("output item %q scored %v, per-item definition %v", it.Content(), res.Scores[i], ref[it])
			}
		}
	}

	fzCheckReport(t, items, res, rep, cfg, !policy.DisableDeduplication)
}

func fzSameResult(t *testing.T, what string, a, b cupel.Result) {
	t.Helper()
	if len(a.Items) != len(b.Items) || a.TotalTokens != b.TotalTokens || (a.Overflow == nil) != (b.Overflow == nil) || len(a.Shortfalls) != len(b.Shortfalls) {
		t.Fatalf("%s differs: %d items / %d tokens vs %d items / %d tokens", what, len(a.Items), a.TotalTokens, len(b.Items), b.TotalTokens)
	}
	for i := range a.Items {
		if a.Items[i] != b.Items[i] || !fzSameFloat(a.Scores[i], b.Scores[i]) {
			t.Fatalf("%s differs at %d: %q %v vs %q %v", what, i, a.Items[i].Content(), a.Scores[i], b.Items[i].Content(), b.Scores[i])
		}
	}
	for i := range a.Shortfalls {
		if a.Shortfalls[i] != b.Shortfalls[i] {
			t.Fatalf("%s shortfalls differ: %v vs %v", what, a.Shortfalls, b.Shortfalls)
		}
	}
}

func fzCheckReport(t *testing.T, items []*cupel.ContextItem, res cupel.Result, rep *cupel.SelectionReport, cfg *fzConfig, dedup bool) {
	if rep == nil {
		t.Fatalf("DryRun returned no report")
	}
	if len(rep.Included) != len(res.Items) {
		t.Fatalf("report includes %d items, result has %d", len(rep.Included), len(res.Items))
	}
	for i, inc := range rep.Included {
		if inc.Item != res.Items[i] || !fzSameFloat(inc.Score, res.Scores[i]) {
			t.Fatalf("included[%d] = %q %v, result %q %v", i, inc.Item.Content(), inc.Score, res.Items[i].Content(), res.Scores[i])
		}
		want := cupel.InclusionScored
		switch {
		case inc.Item.Pinned():
			want = cupel.InclusionPinned
		case inc.Item.Tokens() == 0:
			want = cupel.InclusionZeroToken
		}
		if inc.Reason != want {
			t.Fatalf("included %q: reason %v, want %v", inc.Item.Content(), inc.Reason, want)
		}
	}
	if len(rep.Included)+len(rep.Excluded) != len(items) || rep.TotalCandidates != len(items) {
		t.Fatalf("report: %d included + %d excluded, %d candidates, for %d items", len(rep.Included), len(rep.Excluded), rep.TotalCandidates, len(items))
	}
	sum := 0
	count := map[*cupel.ContextItem]int{}
	firstPinned, hasPinned := "", false
	for _, it := range items {
		sum += it.Tokens()
		count[it]++
		if it.Pinned() && it.Tokens() >= 0 && !hasPinned {
			firstPinned, hasPinned = it.Content(), true
		}
	}
	if rep.TotalTokensConsidered != sum {
		t.Fatalf("total_tokens_considered %d, input sums to %d", rep.TotalTokensConsidered, sum)
	}
	for _, inc := range rep.Included {
		count[inc.Item]--
	}
	for i, ex := range rep.Excluded {
		count[ex.Item]--
		if ex.Item.Tokens() < 0 {
			if ex.Reason.Variant != cupel.ExclusionNegativeTokens || ex.Reason.Tokens() != ex.Item.Tokens() || ex.Score != 0 || math.Signbit(ex.Score) {
				t.Fatalf("negative-token item %q excluded as %v with score %v", ex.Item.Content(), ex.Reason, ex.Score)
			}
		} else if ex.Reason.Variant == cupel.ExclusionNegativeTokens {
			t.Fatalf("item %q with %d tokens excluded as NegativeTokens", ex.Item.Content(), ex.Item.Tokens())
		}
		switch r := ex.Reason; r.Variant {
		case cupel.ExclusionNegativeTokens:
		case cupel.ExclusionDeduplicated:
			if !dedup || r.DeduplicatedAgainst() != ex.Item.Content() {
				t.Fatalf("item %q excluded as %v (deduplication %v)", ex.Item.Content(), r, dedup)
			}
		case cupel.ExclusionBudgetExceeded:
			if r.ItemTokens() != ex.Item.Tokens() || r.AvailableTokens() < 0 {
				t.Fatalf("item %q (%d tokens) excluded as %v", ex.Item.Content(), ex.Item.Tokens(), r)
			}
		case cupel.ExclusionPinnedOverride:
			if r.DisplacedBy() != firstPinned {
				t.Fatalf("item %q excluded as %v, first pinned item %q", ex.Item.Content(), r, firstPinned)
			}
		case cupel.ExclusionCountCapExceeded:
			if !cfg.hasCount || r.Count() < r.Cap() {
				t.Fatalf("item %q excluded as %v", ex.Item.Content(), r)
			}
		default:
			t.Fatalf("item %q excluded for a reason no built-in stage gives: %v", ex.Item.Content(), r)
		}
		if i > 0 {
			prev := rep.Excluded[i-1]
			c := fzCmpDesc(prev.Score, ex.Score)
			if c > 0 || c == 0 && fzStageRank(prev.Reason.Variant) > fzStageRank(ex.Reason.Variant) {
				t.Fatalf("excluded[%d] (%v, %v) sorts after excluded[%d] (%v, %v)", i-1, prev.Score, prev.Reason.Variant, i, ex.Score, ex.Reason.Variant)
			}
		}
	}
	for it, n := range count {
		if n != 0 {
			t.Fatalf("item %q: input count minus report count = %d", it.Content(), n)
		}
	}
	if len(rep.CountRequirementShortfalls) != len(res.Shortfalls) {
		t.Fatalf("report shortfalls %v, result %v", rep.CountRequirementShortfalls, res.Shortfalls)
	}
	for i := range res.Shortfalls {
		if rep.CountRequirementShortfalls[i] != res.Shortfalls[i] {
			t.Fatalf("report shortfalls %v, result %v", rep.CountRequirementShortfalls, res.Shortfalls)
		}
	}
}
