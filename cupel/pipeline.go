package cupel

import (
	"hash/maphash"
	"time"

	"github.com/cupel-go/go-cupel/cupel/internal/keysort"
)

// Policy is the configuration a [Pipeline] is built from (spec chapter
// "Policy Sensitivity"): Scorer, Slicer and Placer are
// required. Deduplication is on unless DisableDeduplication is set, and the
// zero Overflow is OverflowThrow, the spec's defaults.
type Policy struct {
	Scorer               Scorer
	Slicer               Slicer
	Placer               Placer
	DisableDeduplication bool
	Overflow             OverflowStrategy
}

// Pipeline runs the six Cupel stages (Classify, Score, Deduplicate, Sort,
// Slice, Place) over candidate items under a budget (spec chapter "Pipeline").
// It is immutable once built and safe for concurrent use, provided its
// scorer, slicer and placer are (the built-in ones are).
type Pipeline struct {
	scorer   Scorer
	slicer   Slicer
	placer   Placer
	dedup    bool
	overflow OverflowStrategy
}

// NewPipeline validates cfg and builds the pipeline. A missing (or typed nil)
// scorer, slicer or placer, or an unknown overflow strategy, is a
// [*ValidationError] wrapping [ErrInvalidConfig].
func NewPipeline(cfg Policy) (*Pipeline, error) {
	if isNil(cfg.Scorer) {
		return nil, invalidConfig("Pipeline", "Scorer", nil, "is required")
	}
	if isNil(cfg.Slicer) {
		return nil, invalidConfig("Pipeline", "Slicer", nil, "is required")
	}
	if isNil(cfg.Placer) {
		return nil, invalidConfig("Pipeline", "Placer", nil, "is required")
	}
	if !cfg.Overflow.valid() {
		return nil, invalidConfig("Pipeline", "Overflow", int(cfg.Overflow), "must be OverflowThrow, OverflowTruncate or OverflowProceed")
	}
	return &Pipeline{
		scorer:   cfg.Scorer,
		slicer:   cfg.Slicer,
		placer:   cfg.Placer,
		dedup:    !cfg.DisableDeduplication,
		overflow: cfg.Overflow,
	}, nil
}

// Config returns the configuration the pipeline was built from.
func (p *Pipeline) Config() Policy {
	return Policy{Scorer: p.scorer, Slicer: p.slicer, Placer: p.placer, DisableDeduplication: !p.dedup, Overflow: p.overflow}
}

// Result is the outcome of a run.
type Result struct {
	// Items is the context window in placed order.
	Items []*ContextItem
	// Scores holds the score of Items[i] at index i: 1.0 for pinned items.
	Scores []float64
	// TotalTokens is the sum of the tokens of Items.
	TotalTokens int
	// Overflow is set when the selection exceeded targetTokens under
	// OverflowProceed.
	Overflow *OverflowEvent
	// Shortfalls lists the count requirements a count-quota slicer could not
	// meet under slicer.ScarcityDegrade.
	Shortfalls []CountRequirementShortfall
}

// Run runs the six stages over items under budget and returns the
// selection (see the package documentation, "Which entry point to use").
// With no options it records nothing and builds no diagnostics: the call
// to use when only the selection matters. [WithReport] has it return the
// SelectionReport too, [WithTrace] record into a collector of your own, and
// [WithOnOverflow] report an overflow under OverflowProceed. It is
// RunContext under a context that is never done.
//
// It fails with an error wrapping ErrInvalidItem when an item is nil,
// ErrTokenOverflow when the items' tokens do not sum within an int,
// ErrPinnedExceedsBudget when pinned items need more than
// maxTokens - outputReserve, ErrOverflow under OverflowThrow, ErrInvalidConfig
// for an option of a streamed run only, and whatever the slicer returns
// (ErrTableTooLarge, ErrCountRequirementUnmet). The items slice and the
// items themselves are never modified.
func (p *Pipeline) Run(items []*ContextItem, budget ContextBudget, opts ...RunOption) (Result, error) {
	return p.runBatch(nil, items, budget, opts)
}

// runBatch is Run and RunContext: c is nil when the run cannot be
// cancelled.
func (p *Pipeline) runBatch(c *canceller, items []*ContextItem, budget ContextBudget, opts []RunOption) (Result, error) {
	cfg := newRunConfig(opts)
	if err := cfg.check(false); err != nil {
		return Result{}, err
	}
	if err := c.err(StageClassify); err != nil {
		return Result{}, err
	}
	r := run{p: p, budget: budget, onOverflow: cfg.onOverflow, stop: c, sc: getScratchBuffers()}
	defer putScratchBuffers(r.sc)
	report := r.setTrace(&cfg, len(items))
	res, err := r.execute(items)
	if err == nil && report != nil {
		*cfg.report = *report.Report()
	}
	return res, err
}

// run holds the state of one pipeline execution.
type run struct {
	p          *Pipeline
	budget     ContextBudget
	onOverflow func(OverflowEvent)
	trace      TraceCollector // nil when not tracing
	start      time.Time
	stop       *canceller // nil when the run cannot be cancelled (context.go)
	sc         *scratch   // the run's reusable buffers (scratch.go)
}

func (r *run) beginStage() {
	if r.trace != nil {
		r.start = time.Now()
	}
}

func (r *run) endStage(stage PipelineStage, itemCount int) {
	if r.trace != nil {
		r.trace.RecordStageEvent(TraceEvent{
			Stage:      stage,
			DurationMs: float64(time.Since(r.start).Nanoseconds()) / 1e6,
			ItemCount:  itemCount,
		})
	}
}

// exclude records the exclusion of item at the stage with code stage.
func (r *run) exclude(stage uint8, item *ContextItem, score float64, reason ExclusionReason) {
	r.trace.RecordItemEvent(TraceEvent{Stage: stageCodes[stage], ItemCount: 1, Item: item, Score: score, Exclusion: reason})
}

// include records the inclusion of item at the Place stage.
func (r *run) include(item *ContextItem, score float64, reason uint8) {
	r.trace.RecordItemEvent(TraceEvent{Stage: StagePlace, ItemCount: 1, Item: item, Score: score, Inclusion: inclusionCodes[reason]})
}

func (r *run) execute(items []*ContextItem) (Result, error) {
	// Stage 1: Classify.
	r.beginStage()
	pinned, scoreable, pinnedTokens, err := r.classify(items)
	if err != nil {
		return Result{}, err
	}
	r.endStage(StageClassify, len(items))

	// Stage 2: Score.
	if err := r.checkpoint(StageScore); err != nil {
		return Result{}, err
	}
	r.beginStage()
	scores := keysort.Resize(&r.sc.scores, len(scoreable))
	if len(scoreable) > 0 {
		ScoreBatch(r.p.scorer, scoreable, scores)
	}
	r.endStage(StageScore, len(scoreable))

	// Stage 3: Deduplicate.
	if err := r.checkpoint(StageDeduplicate); err != nil {
		return Result{}, err
	}
	r.beginStage()
	survivors, err := r.deduplicate(scoreable, scores)
	if err != nil {
		return Result{}, err
	}
	r.endStage(StageDeduplicate, len(scoreable))

	// Stage 4: Sort (no stage event: spec chapter "Events").
	if err := r.checkpoint(stageSort); err != nil {
		return Result{}, err
	}
	var sliced []ScoredItem
	var shortfalls []CountRequirementShortfall
	caller := forSorted
	if r.fusedTraceable() {
		// Nothing observes the Sort stage's list, or the collector orders
		// the Slice stage's exclusions itself (trace_slice.go).
		caller = forUnsorted
	}
	if slicePathOf(r.p.slicer, caller, r.stop != nil) == pathSliceUnsorted {
		// Stages 4 and 5 in one: the slicer does without the Sort stage.
		r.beginStage()
		sliced, err = r.sliceUnsorted(scoreable, scores, survivors, r.budget.Effective(pinnedTokens))
		if err != nil {
			return Result{}, err
		}
		r.traceUnsortedSlice(sliced, pinned, pinnedTokens)
	} else {
		sorted, err := sortByScore(keysort.Resize(&r.sc.sorted, len(survivors)), scoreable, scores, survivors, r.stop)
		if err != nil {
			return Result{}, err
		}

		// Stage 5: Slice.
		if err := r.checkpoint(StageSlice); err != nil {
			return Result{}, err
		}
		r.beginStage()
		sliced, shortfalls, err = r.slice(sorted, pinned, pinnedTokens)
		if err != nil {
			return Result{}, err
		}
		r.endStage(StageSlice, len(sorted))
	}

	// Stage 6: Place.
	if err := r.checkpoint(StagePlace); err != nil {
		return Result{}, err
	}
	r.beginStage()
	res, err := r.place(pinned, sliced, true)
	if err != nil {
		return Result{}, err
	}
	res.Shortfalls = shortfalls
	r.endStage(StagePlace, len(pinned)+len(sliced))
	return res, nil
}

// deduplicate is the Deduplicate stage (spec chapter 9, "Stage 3:
// Deduplicate"): it returns the indexes, ascending, of the scoreable items
// that survive and records the others as deduplicated. dedupSpec is the
// stage as the spec writes it; when deduplication is on, dedupByTable
// (dedup_table.go) returns the same survivors faster.
func (r *run) deduplicate(items []*ContextItem, scores []float64) ([]int, error) {
	if !r.p.dedup {
		return r.dedupSpec(items, scores)
	}
	return r.dedupByTable(items, scores)
}

// dedupSpec is the spec's DEDUPLICATE: a map from content (byte-exact) to
// the index of the best item with that content, the highest score winning
// and the lowest index on ties; the survivors are the items that are their
// content's best, in input order. Where the spec compares scores with ">",
// it uses keysort.CompareScoreDesc, so that a NaN score loses to any number, as in
// every other score comparison of the pipeline (ruling 6).
func (r *run) dedupSpec(items []*ContextItem, scores []float64) ([]int, error) {
	survivors := keysort.Resize(&r.sc.survivors, len(items))[:0]
	if !r.p.dedup {
		for i := range items {
			survivors = append(survivors, i)
		}
		return survivors, nil
	}
	bestByContent := make(map[string]int, len(items))
	for i, it := range items {
		if err := r.pollAt(i, StageDeduplicate); err != nil {
			return nil, err
		}
		if b, ok := bestByContent[it.content]; !ok || keysort.CompareScoreDesc(scores[i], scores[b]) < 0 {
			bestByContent[it.content] = i
		}
	}
	for i, it := range items {
		if b := bestByContent[it.content]; b == i {
			survivors = append(survivors, i)
		} else if r.trace != nil {
			r.exclude(codeDeduplicate, it, scores[i], Deduplicated(items[b].content))
		}
	}
	return survivors, nil
}

// dedupSeed seeds the content hashes of deduplicate. Results never depend on
// it: equal hashes are confirmed by comparing the strings.
var dedupSeed = maphash.MakeSeed()

// dedupHash is 32 bits of a content hash, which NewItem stores in the item
// for dedupByTable (a variable so that a test can force collisions in the
// items it builds): a collision only costs a probe, in which the strings
// are compared.
var dedupHash = func(content string) uint64 { return maphash.String(dedupSeed, content) >> 32 }

// sortByScore is the Sort stage (spec chapter 10, "Stage 4: Sort"), in the
// spec's implementation pattern: it builds a (score, index) key for each
// survivor, index being its position in the deduplicated list, sorts the
// keys by score descending then index ascending, and rebuilds the list in
// that order; the order does not rely on sort stability (spec pitfall P1).
// The score part of a key is keysort.DescKey(score), whose ascending order is
// keysort.CompareScoreDesc's (NaN last, -0.0 equal to +0.0, ruling 6), so that
// keysort.Sort, which sorts as slices.SortFunc with keysort.Cmp does, is the
// spec's SORT-BY; TestSortByScoreAgreesWithSpec checks the whole against a
// stable sort with keysort.CompareScoreDesc. A non-nil stop is polled between the
// passes of the radix sort.
func sortByScore(sorted []ScoredItem, items []*ContextItem, scores []float64, survivors []int, stop *canceller) ([]ScoredItem, error) {
	kp := keysort.GetScratch(len(survivors))
	defer keysort.PutScratch(kp)
	keys := (*kp)[:len(survivors)]
	for pos, i := range survivors {
		keys[pos] = keysort.KeyIdx{Key: keysort.DescKey(scores[i]), Idx: pos}
	}
	if err := keysort.SortPoll(keys, stop.poller(stageSort)); err != nil {
		return nil, err
	}
	for k, ki := range keys {
		i := survivors[ki.Idx]
		sorted[k] = ScoredItem{Item: items[i], Score: scores[i]}
	}
	return sorted, nil
}

// slice runs the slicer on the effective budget (spec "Stage 5: Slice") and
// returns the selected items with their scores in Sort-stage order
// (ruling 13), whatever order the slicer returned them in.
func (r *run) slice(sorted []ScoredItem, pinned []*ContextItem, pinnedTokens int) ([]ScoredItem, []CountRequirementShortfall, error) {
	eff := r.budget.Effective(pinnedTokens)
	chosen, nSelected, res, err := sliceSorted(r.stop, r.p.slicer, sorted, eff, keysort.Resize(&r.sc.chosen, len(sorted)))
	if err != nil {
		return nil, nil, err
	}
	if len(res.Shortfalls) > 0 && r.trace != nil {
		if sr, ok := r.trace.(ShortfallRecorder); ok {
			sr.RecordShortfalls(res.Shortfalls)
		}
	}
	sliced := keysort.Resize(&r.sc.sliced, nSelected)[:0]
	for k, si := range sorted {
		if chosen[k] {
			sliced = append(sliced, si)
		}
	}
	if r.trace != nil && len(sliced) < len(sorted) {
		r.explainSliceExclusions(sorted, chosen, res.CapExcluded, pinned, pinnedTokens, eff, sliced)
	}
	return sliced, res.Shortfalls, nil
}

// sliceUnsorted is the Sort and Slice stages of a run that records nothing,
// with a slicer that does without the Sort stage ([UnsortedSlicer]): it
// hands the slicer the survivors (indexes into items, ascending) in that
// order under the effective budget b, checks the positions it returns, and
// sorts only the selection, by score descending and then survivor order,
// which is the Sort stage's order. It returns the selected items with their
// scores in that order (ruling 13).
func (r *run) sliceUnsorted(items []*ContextItem, scores []float64, survivors []int, b ContextBudget) ([]ScoredItem, error) {
	in := keysort.Resize(&r.sc.sorted, len(survivors))
	for k, i := range survivors {
		in[k] = ScoredItem{Item: items[i], Score: scores[i]}
	}
	pos, _, err := callSlicer(r.stop, r.p.slicer, pathSliceUnsorted, in, b, r.sc.positions[:0])
	if err != nil {
		return nil, err
	}
	if cap(pos) <= keysort.MaxScratchItems {
		r.sc.positions = pos[:0] // keep a grown buffer for the next run
	}
	chosen := keysort.Resize(&r.sc.chosen, len(in))
	clear(chosen)
	if err := markPositions(r.p.slicer, pathSliceUnsorted, pos, chosen); err != nil {
		return nil, err
	}
	kp := keysort.GetScratch(len(pos))
	defer keysort.PutScratch(kp)
	keys := (*kp)[:len(pos)]
	for k, p := range pos {
		keys[k] = keysort.KeyIdx{Key: keysort.DescKey(in[p].Score), Idx: p}
	}
	keysort.Sort(keys)
	sliced := keysort.Resize(&r.sc.sliced, len(keys))
	for k, ki := range keys {
		sliced[k] = in[ki.Idx]
	}
	return sliced, nil
}

// explainSliceExclusions records why each sorted item the slicer left out
// (chosen false; sliced holds the others) was excluded: CountCapExceeded for
// count-quota cap drops (ruling 4), else PinnedOverride or BudgetExceeded
// with what the selection left of the target (rulings 2 and 3).
func (r *run) explainSliceExclusions(sorted []ScoredItem, chosen []bool, capped []CapExclusion, pinned []*ContextItem, pinnedTokens int, eff ContextBudget, sliced []ScoredItem) {
	selectedTokens := 0
	for _, si := range sliced {
		selectedTokens += si.Item.tokens
	}
	unpinnedTarget := eff.targetTokens
	if len(pinned) > 0 && pinnedTokens > 0 {
		unpinnedTarget = r.budget.Effective(0).targetTokens
	}
	r.excludeUnchosen(sorted, chosen, capped, pinned, eff.targetTokens, unpinnedTarget, max(0, eff.targetTokens-selectedTokens))
}

// excludeUnchosen records the Slice-stage exclusion of each sorted item
// whose chosen flag is false: CountCapExceeded when capped holds it (ruling
// 4); else PinnedOverride when pinned items exist and the item's tokens
// exceed target but not unpinnedTarget, the target had the pinned items'
// tokens not been counted (ruling 2); else BudgetExceeded with available
// tokens (ruling 3). The batch and the streamed Slice stage share it.
func (r *run) excludeUnchosen(sorted []ScoredItem, chosen []bool, capped []CapExclusion, pinned []*ContextItem, target, unpinnedTarget, available int) {
	reason := unfitReason(pinned, target, unpinnedTarget, available)
	if len(capped) == 0 && r.excludeUnchosenAtOnce(sorted, chosen, reason) {
		return
	}
	var capBy map[*ContextItem][]CapExclusion
	if len(capped) > 0 {
		capBy = make(map[*ContextItem][]CapExclusion, len(capped))
		for _, c := range capped {
			capBy[c.Item] = append(capBy[c.Item], c)
		}
	}
	for k, si := range sorted {
		if chosen[k] {
			continue
		}
		if cs := capBy[si.Item]; len(cs) > 0 {
			r.exclude(codeSlice, si.Item, si.Score, CountCapExceeded(cs[0].Kind, cs[0].Cap, cs[0].Count))
			capBy[si.Item] = cs[1:]
			continue
		}
		r.exclude(codeSlice, si.Item, si.Score, reason(si.Item))
	}
}

// place merges pinned items (score 1.0) before the sliced items, handles
// overflow against the original targetTokens and hands the merged list to the
// placer (spec "Stage 6: Place").
//
// scoreOrdered says that sliced is in Sort-stage order (score descending,
// ties in list order), as the batch run's selection is (ruling 13); a
// streamed run's is not.
func (r *run) place(pinned []*ContextItem, sliced []ScoredItem, scoreOrdered bool) (Result, error) {
	merged := keysort.Resize(&r.sc.merged, len(pinned)+len(sliced))[:0]
	total := 0
	for _, it := range pinned {
		merged = append(merged, ScoredItem{Item: it, Score: 1.0})
		total += it.tokens
	}
	for _, si := range sliced {
		merged = append(merged, si)
		total += si.Item.tokens
	}
	target := r.budget.targetTokens
	var overflow *OverflowEvent
	if total > target {
		switch r.p.overflow {
		case OverflowThrow:
			return Result{}, &OverflowError{MergedTokens: total, TargetTokens: target}
		case OverflowTruncate:
			merged, total = r.truncate(merged, len(pinned) > 0, target)
		case OverflowProceed:
			items := make([]*ContextItem, len(merged))
			for i, si := range merged {
				items[i] = si.Item
			}
			overflow = &OverflowEvent{TokensOverBudget: total - target, OverflowingItems: items, Budget: r.budget}
			if r.onOverflow != nil {
				r.onOverflow(*overflow)
			}
		}
	}

	placed, scores, err := r.placeMerged(merged, scoreOrdered && len(pinned) == 0)
	if err != nil {
		return Result{}, err
	}
	if r.trace != nil {
		for i, it := range placed {
			reason := codeScored
			switch {
			case it.pinned:
				reason = codePinned
			case it.tokens == 0:
				reason = codeZeroToken
			}
			r.include(it, scores[i], reason)
		}
	}
	return Result{Items: placed, Scores: scores, TotalTokens: total, Overflow: overflow}, nil
}

// truncate keeps pinned items and, in merged order, the non-pinned items that
// still fit targetTokens (spec "Stage 6: Place", HANDLE-OVERFLOW; ruling
// 13). Dropped items are recorded as PinnedOverride when they would have fitted
// counting only the non-pinned items kept so far, else BudgetExceeded with the
// tokens left after truncation (rulings 2 and 3).
func (r *run) truncate(merged []ScoredItem, hasPinned bool, target int) ([]ScoredItem, int) {
	kept := make([]ScoredItem, 0, len(merged))
	current, unpinned := 0, 0
	type drop struct {
		si       ScoredItem
		override bool
	}
	var drops []drop
	for _, si := range merged {
		t := si.Item.tokens
		switch {
		case si.Item.pinned:
			kept = append(kept, si)
			current += t
		case current+t <= target:
			kept = append(kept, si)
			current += t
			unpinned += t
		default:
			if r.trace != nil {
				drops = append(drops, drop{si, hasPinned && unpinned+t <= target})
			}
		}
	}
	if r.trace != nil {
		available := max(0, target-current)
		var firstPinned string
		for _, si := range merged {
			if si.Item.pinned {
				firstPinned = si.Item.content
				break
			}
		}
		for _, d := range drops {
			reason := BudgetExceeded(d.si.Item.tokens, available)
			if d.override {
				reason = PinnedOverride(firstPinned)
			}
			r.exclude(codePlace, d.si.Item, d.si.Score, reason)
		}
	}
	return kept, current
}
