package casefile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/vectors"
)

// LoadCase turns one vector file into a Case. name is the path relative
// to the suite root ("required/scoring/recency-basic.toml"). The error is
// a *SuiteError.
func LoadCase(name string, data []byte) (*Case, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &SuiteError{File: name, Line: pe.Position.Line, Reason: "invalid TOML: " + pe.Message}
		}
		return nil, &SuiteError{File: name, Reason: "invalid TOML: " + err.Error()}
	}
	f := &fileCtx{name: name, src: string(data), consumed: map[string]bool{}, asked: map[string]bool{}}
	root := tbl{f: f, m: doc, occ: -1}
	c := &Case{ID: strings.TrimSuffix(name, ".toml"), File: name}
	parts := strings.Split(name, "/")
	if len(parts) < 3 {
		return nil, &SuiteError{File: name, Reason: "a vector must be at <tier>/<stage>/<name>.toml"}
	}
	c.Tier, c.Stage = parts[0], parts[1]
	if c.Tier != TierRequired && c.Tier != TierOptional {
		return nil, &SuiteError{File: name, Reason: fmt.Sprintf("tier %q from the path is not required or optional", c.Tier)}
	}
	if !slices.Contains(Stages, c.Stage) {
		return nil, &SuiteError{File: name, Reason: fmt.Sprintf("stage %q from the path is not one of %s", c.Stage, strings.Join(Stages, ", "))}
	}
	test, ok := root.sub("test")
	if !ok {
		if f.err != nil {
			return nil, f.err
		}
		return nil, &SuiteError{File: name, Line: 1, Reason: "missing [test] table"}
	}
	c.Name, _ = test.str("name")
	c.Covers = test.strings("covers")
	if c.Covers != nil {
		c.CoversLine = test.line("covers")
	}
	stage := test.reqStr("stage")
	if f.err != nil {
		return nil, f.err
	}
	if stage != c.Stage {
		return nil, &SuiteError{File: name, Line: test.line("stage"),
			Reason: fmt.Sprintf("[test] stage = %q disagrees with the path's stage %q", stage, c.Stage)}
	}
	c.Expect.Epsilon = DefaultEpsilon
	if tol, ok := root.sub("tolerance"); ok {
		if e, ok := tol.float("score_epsilon"); ok {
			c.Expect.Epsilon = float64(*e)
		}
	}
	switch c.Stage {
	case StageScoring:
		loadScoring(root, test, c)
	case StageSlicing:
		loadSlicing(root, test, c)
	case StagePlacing:
		loadPlacing(root, test, c)
	case StagePipeline:
		loadPipeline(root, test, c)
	}
	if f.err != nil {
		// The whole file was read: its unknown keys are known, and often
		// the cause (a misspelt key leaves a required one missing).
		f.err.Warnings = keyWarnings(f, unknownKeys(doc, f.consumed))
		return nil, f.err
	}
	c.UnknownKeys = unknownKeys(doc, f.consumed)
	c.Warnings = keyWarnings(f, c.UnknownKeys)
	return c, nil
}

// itemRules say which item keys a stage requires.
type itemRules struct {
	// score: the item must carry a score (slicing); scoreOpt: it may, and
	// defaults to 0.0 (placing, where other suites sometimes leave it out).
	score, scoreOpt bool
	// tokensOpt: tokens default to 0 (placing).
	tokensOpt bool
}

func loadItems(root tbl, key string, rules itemRules) []Item {
	ts, _ := root.arr(key)
	items := make([]Item, 0, len(ts))
	for i, t := range ts {
		it := Item{Index: i, Kind: "Message", Source: "Chat"}
		it.Content = t.reqStr("content")
		if rules.tokensOpt {
			it.Tokens, _ = t.integer("tokens")
		} else {
			it.Tokens = t.reqInt("tokens")
		}
		if s, ok := t.str("kind"); ok {
			it.Kind = s
		}
		if s, ok := t.str("source"); ok {
			it.Source = s
		}
		if p, ok := t.integer("priority"); ok {
			it.Priority = &p
		}
		it.Tags = t.strings("tags")
		if tm, ok := t.datetime("timestamp"); ok {
			it.Timestamp = tm
		}
		if h, ok := t.float("futureRelevanceHint"); ok {
			it.FutureRelevanceHint = h
		}
		it.Pinned, _ = t.boolean("pinned")
		if md, ok := t.sub("metadata"); ok {
			t.f.consumed[md.path+".*"] = true
			it.Metadata = map[string]any{}
			for k, v := range md.m {
				switch x := v.(type) {
				case string, float64, bool:
					it.Metadata[k] = x
				case int64:
					it.Metadata[k] = float64(x)
				default:
					md.errf(k, "metadata values must be strings, numbers or booleans, got %s", tomlType(v))
				}
			}
		}
		switch {
		case rules.score:
			s := t.reqFloat("score")
			it.Score = &s
		case rules.scoreOpt:
			s := t.floatOr("score", 0)
			it.Score = &s
		}
		items = append(items, it)
	}
	return items
}

// resolver matches expectation references to items: by index when given,
// otherwise the first item with that content not matched already by the
// same list.
type resolver struct {
	items []Item
	used  map[int]bool
}

func newResolver(items []Item) *resolver { return &resolver{items: items, used: map[int]bool{}} }

func (r *resolver) ref(t tbl, contentKey string) Ref {
	var ref Ref
	if idx, ok := t.integer("index"); ok {
		if idx < 0 || int(idx) >= len(r.items) {
			t.errf("index", "index %d is out of range (%d items)", idx, len(r.items))
			return ref
		}
		i := int(idx)
		ref.Index, ref.Resolved = &i, i
		ref.Content = r.items[i].Content
		if s, ok := t.str(contentKey); ok && s != ref.Content {
			t.errf(contentKey, "content %q does not match item %d (%q)", s, i, ref.Content)
		}
		r.used[i] = true
		return ref
	}
	ref.Content = t.reqStr(contentKey)
	ref.Resolved = r.byContent(ref.Content)
	if ref.Resolved < 0 && t.f.err == nil {
		t.errf(contentKey, "no item has content %q", ref.Content)
	}
	return ref
}

func (r *resolver) byContent(content string) int {
	for i, it := range r.items {
		if !r.used[i] && it.Content == content {
			r.used[i] = true
			return i
		}
	}
	for i, it := range r.items {
		if it.Content == content {
			return i
		}
	}
	return -1
}

func (r *resolver) contents(t tbl, key string) []Ref {
	list := t.strings(key)
	refs := make([]Ref, 0, len(list))
	for _, s := range list {
		i := r.byContent(s)
		if i < 0 && t.f.err == nil {
			t.errf(key, "no item has content %q", s)
		}
		refs = append(refs, Ref{Content: s, Resolved: i})
	}
	return refs
}

func loadScoring(root, test tbl, c *Case) {
	typ := componentName(test, "scorer", "scorer", policy.ScorerTypes())
	c.Expect.ConstructionError, _ = test.boolean("expect_construction_error")
	cfg, _ := root.sub("config")
	c.Input.Scorers = []policy.ScorerSpec{parseScorer(typ, cfg)}
	c.Input.Items = loadItems(root, "items", itemRules{})
	loadErrorExpectation(root, c)
	exp, _ := root.arr("expected")
	r := newResolver(c.Input.Items)
	for _, e := range exp {
		ref := r.ref(e, "content")
		c.Expect.Scores = append(c.Expect.Scores, ExpectedScore{Ref: ref, Score: e.reqFloat("score_approx")})
	}
}

// loadErrorExpectation reads [expected] error when [expected] is a table.
func loadErrorExpectation(root tbl, c *Case) {
	if v, ok := root.m["expected"].(map[string]any); ok && v != nil {
		exp, _ := root.sub("expected")
		if k, ok := exp.str("error"); ok {
			if !slices.Contains(ErrorKinds, k) {
				exp.errf("error", "unknown error kind %q (want one of %s)", k, strings.Join(ErrorKinds, ", "))
			}
			c.Expect.Error = k
		}
	}
}

// componentName reads the required key of t naming a scorer, slicer or
// placer (what), and fails the file at the key's line when the name is not
// one of known (the spec's names), suggesting the closest.
func componentName(t tbl, key, what string, known []string) string {
	name := t.reqStr(key)
	if name == "" || slices.Contains(known, name) {
		return name
	}
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if s := closest(name, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	t.errf(key, "%s; the %ss are %s", msg, what, strings.Join(known, ", "))
	return name
}

// closest returns the name of names nearest to s in edit distance, or ""
// when none is near enough to be a misspelling.
func closest(s string, names []string) string {
	best, bestD := "", len(s)/2+1
	for _, n := range names {
		if d := editDistance(strings.ToLower(s), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// parseScorer reads a scorer's configuration from its table. This is where
// the vectors' shorthands become the one model of policy.Spec: a
// composite's children are "scorers" or "children", synonyms at every
// level, read as Children, each with its weight; a scaled scorer's
// inner_scorer names its Inner scorer in its default configuration.
func parseScorer(typ string, t tbl) policy.ScorerSpec {
	sc := policy.ScorerSpec{Type: typ}
	switch typ {
	case "kind":
		use, hasUse := t.boolean("use_default_weights")
		ws, hasWeights := t.arr("weights")
		for _, w := range ws {
			sc.Weights = append(sc.Weights, policy.KindWeightSpec{Kind: cupel.ContextKind(w.reqStr("kind")), Weight: w.reqFloat("weight")})
		}
		// With use_default_weights = true the weights are not used.
		sc.UseDefaultWeights = cupel.Ptr(use || (!hasUse && !hasWeights))
		if *sc.UseDefaultWeights {
			sc.Weights = nil
		}
	case "tag":
		ws, _ := t.arr("tag_weights")
		for _, w := range ws {
			sc.TagWeights = append(sc.TagWeights, policy.TagWeightSpec{Tag: w.reqStr("tag"), Weight: w.reqFloat("weight")})
		}
	case "composite":
		var children []tbl
		for _, k := range []string{"scorers", "children"} {
			if a, ok := t.arr(k); ok {
				children = append(children, a...)
			}
		}
		sc.Children = []policy.ScorerSpec{}
		for _, ch := range children {
			sc.Children = append(sc.Children, child(ch))
		}
	case "scaled":
		if inner, ok := t.sub("inner"); ok {
			in := parseScorer(componentName(inner, "type", "scorer", policy.ScorerTypes()), inner)
			sc.Inner = &in
		} else if t.has("inner_scorer") {
			in := parseScorer(componentName(t, "inner_scorer", "scorer", policy.ScorerTypes()), tbl{f: t.f, m: map[string]any{}, path: join(t.path, "inner"), occ: -1})
			sc.Inner = &in
		}
	case "decay":
		if rt, ok := t.datetime("reference_time"); ok {
			sc.ReferenceTime = rt
		}
		nts := t.floatOr("null_timestamp_score", 0.5)
		sc.NullTimestampScore = &nts
		if ct, ok := t.sub("curve"); ok {
			curve := policy.CurveSpec{Type: ct.reqStr("type")}
			curve.HalfLifeSecs, _ = ct.float("half_life_secs")
			curve.MaxAgeSecs, _ = ct.float("max_age_secs")
			ws, _ := ct.arr("windows")
			for _, w := range ws {
				curve.Windows = append(curve.Windows, policy.WindowSpec{MaxAgeSecs: w.reqFloat("max_age_secs"), Score: w.reqFloat("score")})
			}
			sc.Curve = &curve
		}
	case "metadata_trust":
		d := t.floatOr("default_score", 0.5)
		sc.DefaultScore = &d
	case "metadata_key":
		sc.Key, _ = t.str("key")
		sc.Value, _ = t.str("value")
		if b, ok := t.float("boost"); ok {
			sc.Boost = *b
		}
	}
	return sc
}

// child reads a composite's child: its scorer with its weight.
func child(t tbl) policy.ScorerSpec {
	w := t.reqFloat("weight")
	sc := parseScorer(componentName(t, "type", "scorer", policy.ScorerTypes()), t)
	sc.Weight = &w
	return sc
}

func loadBudget(root tbl) *Budget {
	bt, ok := root.sub("budget")
	if !ok {
		root.f.fail(1, "missing [budget] table")
		return nil
	}
	b := &Budget{TargetTokens: bt.reqInt("target_tokens")}
	b.MaxTokens = b.TargetTokens
	if m, ok := bt.integer("max_tokens"); ok {
		b.MaxTokens = m
	}
	b.OutputReserve, _ = bt.integer("output_reserve")
	if _, isArr := bt.m["reserved_slots"].([]map[string]any); isArr {
		// Also accepted: [[budget.reserved_slots]] kind = "...", tokens = N.
		slots, _ := bt.arr("reserved_slots")
		b.ReservedSlots = map[string]int64{}
		for _, s := range slots {
			b.ReservedSlots[s.reqStr("kind")] = s.reqInt("tokens")
		}
	} else if rs, ok := bt.sub("reserved_slots"); ok {
		bt.f.consumed[rs.path+".*"] = true
		b.ReservedSlots = map[string]int64{}
		for k := range rs.m {
			if n, ok := rs.integer(k); ok {
				b.ReservedSlots[k] = n
			}
		}
	}
	b.EstimationSafetyMarginPercent = bt.floatOr("estimation_safety_margin_percent", 0)
	return b
}

// parseSlicer sets the slicer keys of spec: the slicer typ configured by
// cfg, the format's defaults filled in (a knapsack's bucket size 100, the
// inner slicer greedy, the scarcity behaviour degrade, a quota's require 0
// and cap 100).
func parseSlicer(spec *policy.Spec, typ string, cfg tbl) {
	spec.Slicer = typ
	bucket := func() {
		b := int64(100)
		if n, ok := cfg.integer("bucket_size"); ok {
			b = n
		}
		spec.BucketSize = cupel.Ptr(cfg.intOf("bucket_size", b))
	}
	entries := func() {
		es, _ := cfg.arr("entries")
		spec.Entries = []policy.CountEntrySpec{}
		for _, e := range es {
			spec.Entries = append(spec.Entries, policy.CountEntrySpec{Kind: cupel.ContextKind(e.reqStr("kind")),
				RequireCount: e.intOf("require_count", e.reqInt("require_count")), CapCount: e.intOf("cap_count", e.reqInt("cap_count"))})
		}
		spec.ScarcityBehavior = "degrade"
		if sb, ok := cfg.str("scarcity_behavior"); ok {
			spec.ScarcityBehavior = sb
		}
	}
	inner := func() {
		spec.InnerSlicer = "greedy"
		if cfg.has("inner_slicer") {
			spec.InnerSlicer = componentName(cfg, "inner_slicer", "slicer", policy.SlicerTypes())
		}
		if spec.InnerSlicer == "knapsack" || spec.InnerSlicer == "count_constrained_knapsack" {
			bucket()
		}
	}
	switch typ {
	case "knapsack":
		bucket()
	case "quota":
		inner()
		qs, _ := cfg.arr("quotas")
		spec.Quotas = []policy.QuotaSpec{}
		for _, q := range qs {
			spec.Quotas = append(spec.Quotas, policy.QuotaSpec{Kind: cupel.ContextKind(q.reqStr("kind")),
				Require: cupel.Ptr(q.floatOr("require", 0)), Cap: cupel.Ptr(q.floatOr("cap", 100))})
		}
	case "count_quota":
		inner()
		entries()
	case "count_constrained_knapsack":
		bucket()
		entries()
	}
}

func loadSlicingExpect(root tbl, c *Case, r *resolver) {
	exp, _ := root.sub("expected")
	if exp.has("selected_contents") {
		c.Expect.Selected = r.contents(exp, "selected_contents")
		if c.Expect.Selected == nil {
			c.Expect.Selected = []Ref{}
		}
	}
	if n, ok := exp.integer("shortfall_count"); ok {
		v := int(n)
		c.Expect.ShortfallCount = &v
	}
	if n, ok := exp.integer("cap_excluded_count"); ok {
		v := int(n)
		c.Expect.CapExcludedCount = &v
	}
	loadShortfalls(exp, c)
}

func loadShortfalls(exp tbl, c *Case) {
	c.Expect.Shortfalls = shortfallList(exp, "shortfalls")
}

// shortfallList reads an array of shortfall tables (kind, required_count,
// satisfied_count); nil when the key is absent.
func shortfallList(exp tbl, key string) []Shortfall {
	sfs, ok := exp.arr(key)
	if !ok {
		return nil
	}
	out := []Shortfall{}
	for _, s := range sfs {
		out = append(out, Shortfall{Kind: s.reqStr("kind"), RequiredCount: s.reqInt("required_count"), SatisfiedCount: s.reqInt("satisfied_count")})
	}
	return out
}

func loadSlicing(root, test tbl, c *Case) {
	typ := componentName(test, "slicer", "slicer", policy.SlicerTypes())
	c.Expect.ConstructionError, _ = test.boolean("expect_construction_error")
	cfg, _ := root.sub("config")
	parseSlicer(&c.Input.Spec, typ, cfg)
	c.Input.Budget = loadBudget(root)
	c.Input.Items = loadItems(root, "scored_items", itemRules{score: true})
	loadErrorExpectation(root, c)
	loadSlicingExpect(root, c, newResolver(c.Input.Items))
	if c.Expect.Selected == nil {
		// A missing selected_contents means an empty selection, as other
		// suites write it.
		c.Expect.Selected = []Ref{}
	}
}

func loadPlacing(root, test tbl, c *Case) {
	c.Input.Placer = componentName(test, "placer", "placer", policy.PlacerTypes())
	c.Input.Items = loadItems(root, "items", itemRules{scoreOpt: true, tokensOpt: true})
	loadErrorExpectation(root, c)
	exp, _ := root.sub("expected")
	r := newResolver(c.Input.Items)
	if exp.has("ordered_contents") {
		c.Expect.Ordered = r.contents(exp, "ordered_contents")
	}
	if c.Expect.Ordered == nil {
		c.Expect.Ordered = []Ref{} // missing means empty
	}
}

func loadPipeline(root, test tbl, c *Case) {
	cfg, _ := root.sub("config")
	entries, _ := cfg.arr("scorers")
	switch len(entries) {
	case 1:
		sc := parseScorer(componentName(entries[0], "type", "scorer", policy.ScorerTypes()), entries[0])
		entries[0].get("weight")
		c.Input.Scorers = []policy.ScorerSpec{sc}
	default:
		sc := policy.ScorerSpec{Type: "composite", Children: []policy.ScorerSpec{}}
		for _, e := range entries {
			sc.Children = append(sc.Children, child(e))
		}
		c.Input.Scorers = []policy.ScorerSpec{sc}
	}
	parseSlicer(&c.Input.Spec, componentName(cfg, "slicer", "slicer", policy.SlicerTypes()), cfg)
	c.Input.Placer = componentName(cfg, "placer", "placer", policy.PlacerTypes())
	dedup := true
	if d, ok := cfg.boolean("deduplication"); ok {
		dedup = d
	}
	c.Input.Deduplication = &dedup
	c.Input.OverflowStrategy = "throw"
	if s, ok := cfg.str("overflow_strategy"); ok {
		c.Input.OverflowStrategy = s
	}
	c.Input.Budget = loadBudget(root)
	c.Input.Items = loadItems(root, "items", itemRules{})
	loadErrorExpectation(root, c)

	outs, _ := root.arr("expected_output")
	r := newResolver(c.Input.Items)
	c.Expect.Ordered = []Ref{}
	for _, o := range outs {
		c.Expect.Ordered = append(c.Expect.Ordered, r.ref(o, "content"))
	}
	exp, _ := root.sub("expected")
	loadShortfalls(exp, c)
	c.Expect.ReportShortfalls = shortfallList(exp, "count_requirement_shortfalls")
	if n, ok := exp.integer("shortfall_count"); ok {
		v := int(n)
		c.Expect.ShortfallCount = &v
	}
	if ov, ok := exp.sub("overflow"); ok {
		c.Expect.Overflow = &Overflow{TokensOverBudget: ov.reqInt("tokens_over_budget")}
	}
	if dg, ok := exp.sub("diagnostics"); ok {
		d := &ExpectedDiagnostics{}
		if sum, ok := dg.sub("summary"); ok {
			if n, ok := sum.integer("total_candidates"); ok {
				d.TotalCandidates = &n
			}
			if n, ok := sum.integer("total_tokens_considered"); ok {
				d.TotalTokensConsidered = &n
			}
		}
		if inc, ok := dg.arr("included"); ok {
			d.Included = loadReportEntries(inc, "inclusion_reason", newResolver(c.Input.Items))
		}
		if exc, ok := dg.arr("excluded"); ok {
			d.Excluded = loadReportEntries(exc, "exclusion_reason", newResolver(c.Input.Items))
		}
		c.Expect.Diagnostics = d
	}
}

// reasonFields are the reason fields an expected diagnostics entry may
// state, with whether they are integers (else strings).
var reasonFields = map[string]bool{
	"item_tokens": true, "available_tokens": true, "tokens": true, "cap": true,
	"count": true, "actual": true,
	"deduplicated_against": false, "displaced_by": false, "kind": false,
	"displaced_by_kind": false, "filter_name": false,
}

func loadReportEntries(ts []tbl, reasonKey string, r *resolver) []ExpectedDiagnosticItem {
	out := []ExpectedDiagnosticItem{}
	for _, t := range ts {
		e := ExpectedDiagnosticItem{Ref: r.ref(t, "content")}
		e.Score, _ = t.float("score_approx")
		e.Reason = t.reqStr(reasonKey)
		for k, isInt := range reasonFields {
			if !t.has(k) {
				continue
			}
			if e.Fields == nil {
				e.Fields = map[string]any{}
			}
			if isInt {
				n, _ := t.integer(k)
				e.Fields[k] = n
			} else {
				s, _ := t.str(k)
				e.Fields[k] = s
			}
		}
		for _, k := range []string{"score", "threshold"} {
			if f, ok := t.float(k); ok {
				if e.Fields == nil {
					e.Fields = map[string]any{}
				}
				e.Fields[k] = float64(*f)
			}
		}
		out = append(out, e)
	}
	return out
}

// LoadSuite loads every .toml file of fsys (walked from its root); nil
// means the embedded suite. Files that cannot be loaded become
// Suite.Errors; the error return is only for a file system that cannot be
// walked or read.
func LoadSuite(fsys fs.FS) (*Suite, error) {
	if fsys == nil {
		fsys = vectors.FS
	}
	return loadSuite(fsys)
}

// RequirementsDir is the directory of a suite's root that holds the
// requirements catalogue (vectors/requirements), which LoadSuite skips.
const RequirementsDir = "requirements"

func loadSuite(fsys fs.FS) (*Suite, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == RequirementsDir {
			// The requirements catalogue, beside the vectors when the
			// suite is read from a checkout of vectors/: not vectors.
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".toml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load suite: %w", err)
	}
	sort.Strings(files)
	s := &Suite{SpecVersion: SpecVersion}
	digest := sha256.New()
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("load suite: %w", err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(digest, "%s\x00%s\n", f, hex.EncodeToString(sum[:]))
		c, err := LoadCase(f, data)
		if err != nil {
			var se *SuiteError
			if !errors.As(err, &se) {
				se = &SuiteError{File: f, Reason: err.Error()}
			}
			s.Errors = append(s.Errors, se)
			continue
		}
		s.Cases = append(s.Cases, c)
	}
	// Files were read in path order, but "a-b.toml" sorts before "a.toml"
	// while "a" sorts before "a-b": sort by id, the order Case searches.
	slices.SortFunc(s.Cases, func(a, b *Case) int { return strings.Compare(a.ID, b.ID) })
	s.Digest = hex.EncodeToString(digest.Sum(nil))
	return s, nil
}
