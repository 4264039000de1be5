package policy

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSpecFieldsInKeyOrder keeps the field lists onlyFields walks in key
// order, so that a spec with several fields foreign to its type is told
// about the first of them by name, and complete: every optional key of a
// ScorerSpec is in setFields, and each is set when its field is.
func TestSpecFieldsInKeyOrder(t *testing.T) {
	f := Float(1)
	yes := true
	now := time.Unix(0, 0)
	sc := ScorerSpec{UseDefaultWeights: &yes, Weights: []KindWeightSpec{}, TagWeights: []TagWeightSpec{},
		Children: []ScorerSpec{}, Inner: &ScorerSpec{},
		ReferenceTime: &now, NullTimestampScore: &f, Curve: &CurveSpec{}, DefaultScore: &f, Key: "k", Value: "v", Boost: 1}
	var keys []string
	typ := reflect.TypeFor[ScorerSpec]()
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ",")
		if key != "type" && key != "weight" {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	check := func(what string, fields []field, want []string) {
		t.Helper()
		var names []string
		for _, fl := range fields {
			if !fl.set {
				t.Errorf("%s: %s is not set on a spec that sets it", what, fl.name)
			}
			names = append(names, fl.name)
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: fields %v, want %v (key order)", what, names, want)
		}
	}
	set := sc.setFields()
	check("scorer", set[:], keys)
	bucket := 1
	ps := Spec{BucketSize: &bucket, TableLimit: 1, InnerSlicer: "greedy", Quotas: []QuotaSpec{}, Entries: []CountEntrySpec{}, ScarcityBehavior: "throw"}
	sl := ps.slicerFields()
	check("slicer", sl[:], []string{"bucket_size", "entries", "inner_slicer", "quotas", "scarcity_behavior", "table_limit"})
}
