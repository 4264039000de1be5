package cupeltest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/chat"
	"github.com/cupel-go/go-cupel/cupel/placer"
	"github.com/cupel-go/go-cupel/cupel/scorer"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/cupeltest"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// builtinScorers returns every built-in scorer, in varied configurations.
func builtinScorers() map[string]cupel.Scorer {
	now := scorer.ClockFunc(func() time.Time { return time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC) })
	return map[string]cupel.Scorer{
		"Recency":              scorer.NewRecency(),
		"Priority":             scorer.NewPriority(),
		"KindDefault":          scorer.NewDefaultKind(),
		"Kind":                 must(scorer.NewKind(map[cupel.ContextKind]float64{cupel.KindDocument: 0.7, cupel.KindMemory: 2})),
		"Tag":                  must(scorer.NewTag(map[string]float64{"urgent": 1, "code": 0.5})),
		"Frequency":            scorer.NewFrequency(),
		"Reflexive":            scorer.NewReflexive(),
		"MetadataTrust":        must(scorer.NewMetadataTrust(0.5)),
		"MetadataKey":          must(scorer.NewMetadataKey("cupel:trust", "0.5", 2)),
		"DecayExponential":     must(scorer.NewDecay(now, must(scorer.NewExponentialCurve(24*time.Hour)))),
		"DecayWindow":          must(scorer.NewDecay(now, must(scorer.NewWindowCurve(200*time.Hour)))),
		"DecayStep":            must(scorer.NewDecay(now, must(scorer.NewStepCurve(scorer.StepWindow{MaxAge: 100 * time.Hour, Score: 1}, scorer.StepWindow{MaxAge: 500 * time.Hour, Score: 0.4})))),
		"Scaled(Recency)":      must(scorer.NewScaled(scorer.NewRecency())),
		"Scaled(Scaled(Kind))": must(scorer.NewScaled(must(scorer.NewScaled(scorer.NewDefaultKind())))),
		"Composite": must(scorer.NewComposite(
			scorer.Weighted{Scorer: scorer.NewRecency(), Weight: 2},
			scorer.Weighted{Scorer: scorer.NewPriority(), Weight: 1},
			scorer.Weighted{Scorer: must(scorer.NewScaled(scorer.NewFrequency())), Weight: 0.5},
		)),
	}
}

// builtinSlicers returns every built-in slicer with the options it needs.
func builtinSlicers() map[string]struct {
	s    cupel.Slicer
	opts []cupeltest.Option
} {
	type entry = struct {
		s    cupel.Slicer
		opts []cupeltest.Option
	}
	caps := []slicer.CountQuotaEntry{must(slicer.NewCountQuotaEntry(cupel.KindDocument, 0, 2)), must(slicer.NewCountQuotaEntry(cupel.KindToolOutput, 0, 1))}
	reqs := []slicer.CountQuotaEntry{must(slicer.NewCountQuotaEntry(cupel.KindDocument, 1, 3)), must(slicer.NewCountQuotaEntry(cupel.KindMemory, 2, 2))}
	quotas := must(slicer.NewQuotaSet(slicer.Require(cupel.KindDocument, 20), slicer.Cap(cupel.KindToolOutput, 30)))
	return map[string]entry{
		"Greedy":                         {s: slicer.NewGreedy()},
		"Knapsack":                       {s: must(slicer.NewKnapsack(10))},
		"Knapsack(1)":                    {s: must(slicer.NewKnapsack(1))},
		"Quota(Greedy)":                  {s: must(slicer.NewQuota(quotas, slicer.NewGreedy()))},
		"CountQuota(caps)":               {s: must(slicer.NewCountQuota(caps, slicer.NewGreedy(), slicer.ScarcityDegrade))},
		"CountQuota(requires)":           {s: must(slicer.NewCountQuota(reqs, slicer.NewGreedy(), slicer.ScarcityDegrade)), opts: []cupeltest.Option{cupeltest.AllowOverTarget()}},
		"CountConstrainedKnapsack(caps)": {s: must(slicer.NewCountConstrainedKnapsack(caps, must(slicer.NewKnapsack(10)), slicer.ScarcityDegrade))},
		"CountConstrainedKnapsack(requires, throw)": {s: must(slicer.NewCountConstrainedKnapsack(reqs, must(slicer.NewKnapsack(10)), slicer.ScarcityThrow)), opts: []cupeltest.Option{cupeltest.AllowOverTarget()}},
		"Stream(4)":        {s: must(slicer.NewStream(4))},
		"Stream(1, tol)":   {s: must(slicer.NewStream(1, cupel.WithFillTolerance(5)))},
		"chat.NewestFirst": {s: chat.NewestFirstSlice{}},
	}
}

func builtinPlacers() map[string]cupel.Placer {
	return map[string]cupel.Placer{"UShaped": placer.NewUShaped(), "Chronological": placer.NewChronological()}
}

// TestBuiltinsHonourTheContract runs every contract check, one subtest per
// property, on every exported component of the module (see
// TestBuiltinsAreAllChecked).
func TestBuiltinsHonourTheContract(t *testing.T) {
	for name, s := range builtinScorers() {
		t.Run("Scorer/"+name, func(t *testing.T) { cupeltest.RunScorerTests(t, s) })
	}
	for name, e := range builtinSlicers() {
		t.Run("Slicer/"+name, func(t *testing.T) { cupeltest.RunSlicerTests(t, e.s, e.opts...) })
	}
	for name, p := range builtinPlacers() {
		t.Run("Placer/"+name, func(t *testing.T) { cupeltest.RunPlacerTests(t, p) })
	}
}

// exportedComponents lists the exported types of the module's packages
// that have a Score(item, all), Slice(sorted, budget) or Place(items)
// method, as "pkg.Type" (the form reflect gives, without the pointer).
func exportedComponents(t *testing.T, dirs ...string) []string {
	t.Helper()
	var out []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
					continue
				}
				params := fd.Type.Params.NumFields()
				if !(fd.Name.Name == "Score" && params == 2 || fd.Name.Name == "Slice" && params == 2 || fd.Name.Name == "Place" && params == 1) {
					continue
				}
				recv := fd.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					out = append(out, f.Name.Name+"."+id.Name)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestBuiltinsAreAllChecked fails when an exported scorer, slicer or placer
// of the module is missing from the contract run above.
func TestBuiltinsAreAllChecked(t *testing.T) {
	checked := map[string]bool{}
	name := func(v any) string { return strings.TrimPrefix(reflect.TypeOf(v).String(), "*") }
	for _, s := range builtinScorers() {
		checked[name(s)] = true
	}
	for _, e := range builtinSlicers() {
		checked[name(e.s)] = true
	}
	for _, p := range builtinPlacers() {
		checked[name(p)] = true
	}
	found := exportedComponents(t, filepath.Join("..", "cupel"), filepath.Join("..", "cupel", "chat"), filepath.Join("..", "cupel", "scorer"), filepath.Join("..", "cupel", "placer"), filepath.Join("..", "cupel", "slicer"))
	t.Logf("exported components: %v", found)
	if len(found) < 10 {
		t.Fatalf("found only %v: the source scan is broken", found)
	}
	for _, c := range found {
		if !checked[c] {
			t.Errorf("%s is an exported component the contract run does not check (checked: %v)", c, slices.Sorted(maps.Keys(checked)))
		}
	}
}
