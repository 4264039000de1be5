package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/vectors"
)

// policyFromVector writes the [config] of the vector file data as a policy
// file's table: a pipeline vector's [config] as it stands; a scoring
// vector's as the only [[scorers]] entry, with the type of its [test]
// scorer; a slicing vector's with slicer = its [test] slicer; a placing
// vector's placer. The engine's stand-ins fill what a stage lacks
// (a reflexive scorer, a greedy slicer, a chronological placer). With
// shorthands false, the vectors' two shorthands a spec does not have are
// written as the spec's keys: a composite's scorers as children, a scaled
// scorer's inner_scorer as its inner table.
func policyFromVector(data []byte, shorthands bool) (map[string]any, error) {
	var file map[string]any
	if err := toml.Unmarshal(data, &file); err != nil {
		return nil, err
	}
	test, _ := file["test"].(map[string]any)
	config, _ := file["config"].(map[string]any)
	if config == nil {
		config = map[string]any{}
	}
	policy := map[string]any{"scorers": []map[string]any{{"type": "reflexive"}}, "slicer": "greedy", "placer": "chronological"}
	switch test["stage"] {
	case casefile.StagePipeline:
		policy = config
	case casefile.StageScoring:
		scorer := maps.Clone(config)
		scorer["type"] = test["scorer"]
		policy["scorers"] = []map[string]any{scorer}
	case casefile.StageSlicing:
		maps.Copy(policy, config)
		policy["slicer"] = test["slicer"]
	case casefile.StagePlacing:
		policy["placer"] = test["placer"]
	default:
		return nil, fmt.Errorf("unknown stage %v", test["stage"])
	}
	if !shorthands {
		policy = maps.Clone(policy)
		policy["scorers"] = specScorers(policy["scorers"])
	}
	return policy, nil
}

// specScorers writes the scorer tables of list (a decoded TOML array of
// tables) with the spec's keys in place of the vectors' shorthands.
func specScorers(list any) []map[string]any {
	tables, _ := list.([]map[string]any)
	out := make([]map[string]any, len(tables))
	for i, t := range tables {
		t = maps.Clone(t)
		if children, ok := t["scorers"]; ok {
			delete(t, "scorers")
			t["children"] = children
		}
		if name, ok := t["inner_scorer"]; ok {
			delete(t, "inner_scorer")
			t["inner"] = map[string]any{"type": name}
		}
		if children, ok := t["children"]; ok {
			t["children"] = specScorers(children)
		}
		if inner, ok := t["inner"].(map[string]any); ok {
			t["inner"] = specScorers([]map[string]any{inner})[0]
		}
		out[i] = t
	}
	return out
}

// jsonable turns the floats of a decoded TOML table into policy.Float, the
// JSON codec that keeps NaN and the infinities.
func jsonable(v any) any {
	switch v := v.(type) {
	case float64:
		return policy.Float(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = jsonable(x)
		}
		return out
	case []map[string]any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonable(x)
		}
		return out
	}
	return v
}

// components lists the component types a policy spec uses, for the
// coverage check.
func components(s policy.Spec) []string {
	out := []string{"slicer " + s.Slicer, "placer " + s.Placer, "overflow " + s.OverflowStrategy, fmt.Sprintf("deduplication %v", *s.Deduplication)}
	if s.InnerSlicer != "" {
		out = append(out, "inner_slicer "+s.InnerSlicer)
	}
	if len(s.Quotas) > 0 {
		out = append(out, "quota")
	}
	if len(s.Entries) > 0 {
		out = append(out, "count entry")
	}
	var scorer func(sc policy.ScorerSpec)
	scorer = func(sc policy.ScorerSpec) {
		out = append(out, "scorer "+sc.Type)
		if sc.Curve != nil {
			out = append(out, "curve "+sc.Curve.Type)
		}
		for _, c := range sc.Children {
			scorer(c)
		}
		if sc.Inner != nil {
			scorer(*sc.Inner)
		}
	}
	for _, sc := range s.Scorers {
		scorer(sc)
	}
	return out
}

var _ = ginkgo.Describe("A vector's [config] as a policy file", func() {
	ginkgo.It("builds the pipeline the engine builds for the case, in TOML and in JSON, for every component type, once the vectors' shorthands are written as the spec's keys", func() {
		seen := map[string]bool{}
		checked, shorthands := 0, 0
		err := fs.WalkDir(vectors.FS, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(name, ".toml") {
				return err
			}
			data, err := fs.ReadFile(vectors.FS, name)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			c, err := casefile.LoadCase(name, data)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
			engine, engineErr := build(c.Input.Spec)
			table, err := policyFromVector(data, false)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
			// (fmt prints maps sorted, and a NaN equal to itself.)
			if short, err := policyFromVector(data, true); fmt.Sprint(short) != fmt.Sprint(table) {
				// A vector with a shorthand: as it stands, it is no policy
				// file, and Decode names the key.
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
				var tomlFile bytes.Buffer
				gomega.Expect(toml.NewEncoder(&tomlFile).Encode(short)).To(gomega.Succeed(), name)
				_, err = policy.Decode("short.toml", tomlFile.Bytes())
				gomega.Expect(err).To(gomega.MatchError(gomega.MatchRegexp(`unknown keys: .*(scorers\.scorers|inner_scorer|children\.scorers)`)), name)
				shorthands++
			}

			var tomlFile bytes.Buffer
			gomega.Expect(toml.NewEncoder(&tomlFile).Encode(table)).To(gomega.Succeed(), name)
			jsonFile, err := json.Marshal(jsonable(table))
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
			for _, f := range []struct{ name, src string }{{"policy.toml", tomlFile.String()}, {"policy.json", string(jsonFile)}} {
				// No WithClock: a decay scorer's clock is its reference_time.
				spec, err := policy.Decode(f.name, []byte(f.src))
				var pol cupel.Policy
				if err == nil {
					pol, err = spec.Build()
				}
				if engineErr != nil {
					// A vector whose configuration the engine rejects (a
					// construction error) is rejected as a policy file too.
					gomega.Expect(err).To(gomega.MatchError(cupel.ErrInvalidConfig), "%s as %s:\n%s", name, f.name, f.src)
					continue
				}
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), "%s as %s:\n%s", name, f.name, f.src)
				want, err := policy.Of(engine)
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
				got, err := policy.Of(pol)
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
				gomega.Expect(got).To(gomega.Equal(want), "%s as %s:\n%s", name, f.name, f.src)
				// The clocks are not in a spec: the scores of the case's
				// items tell them apart.
				items, err := engineItems(c.Input.Items)
				var wide unsupportedError
				if strconv.IntSize < 64 && errors.As(err, &wide) {
					continue // a 64-bit case on a 32-bit platform: the engine answers it unsupported
				}
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), name)
				for i, it := range items {
					a, b := engine.Scorer.Score(it, items), pol.Scorer.Score(it, items)
					gomega.Expect(sameScore(a, b)).To(gomega.BeTrue(), "%s as %s: item %d scores %v, the engine's %v", name, f.name, i, b, a)
				}
				gomega.Expect(spec.Placer).NotTo(gomega.BeEmpty())
				for _, k := range components(got) {
					seen[k] = true
				}
				checked++
			}
			return nil
		})
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(checked).To(gomega.BeNumerically(">", 600))
		gomega.Expect(shorthands).To(gomega.BeNumerically(">", 5), "vectors with a shorthand")
		want := []string{"placer chronological", "placer u-shaped", "quota", "count entry",
			"overflow throw", "overflow truncate", "overflow proceed", "deduplication true", "deduplication false",
			"curve exponential", "curve window", "curve step", "inner_slicer greedy", "inner_slicer knapsack"}
		for _, t := range policy.ScorerTypes() {
			want = append(want, "scorer "+t)
		}
		for _, t := range policy.SlicerTypes() {
			want = append(want, "slicer "+t)
		}
		for _, k := range want {
			gomega.Expect(seen).To(gomega.HaveKey(k))
		}
	})
})
