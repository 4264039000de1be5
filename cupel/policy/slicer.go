package policy

import (
	"fmt"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/slicer"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// slicerFields are the policy's slicer fields, in key order (a test keeps
// them so).
func (s *Spec) slicerFields() [6]field {
	return [...]field{
		{"bucket_size", s.BucketSize != nil},
		{"entries", s.Entries != nil},
		{"inner_slicer", s.InnerSlicer != ""},
		{"quotas", s.Quotas != nil},
		{"scarcity_behavior", s.ScarcityBehavior != ""},
		{"table_limit", s.TableLimit != 0},
	}
}

// buildSlicer builds the slicer named by s.Slicer from the slicer keys of
// the policy's table.
func (s *Spec) buildSlicer() (cupel.Slicer, error) {
	set := s.slicerFields()
	check := func(allowed ...string) error { return onlyFields("", "slicer "+s.Slicer, set[:], allowed...) }
	knapsack := func() (*slicer.Knapsack, error) {
		bucket := slicer.DefaultBucketSize
		if s.BucketSize != nil {
			bucket = *s.BucketSize
		}
		var kopts []slicer.KnapsackOption
		if s.TableLimit != 0 {
			kopts = append(kopts, slicer.WithTableLimit(s.TableLimit))
		}
		k, err := slicer.NewKnapsack(bucket, kopts...)
		if err != nil {
			return nil, wrapSpecError("slicer", err)
		}
		return k, nil
	}
	// innerKeys are the keys a slicer with an inner slicer takes besides
	// its own: the knapsack's, when the inner slicer is one.
	innerKeys := func(own ...string) []string {
		own = append(own, "inner_slicer")
		if s.InnerSlicer == "knapsack" {
			own = append(own, "bucket_size", "table_limit")
		}
		return own
	}
	inner := func() (cupel.Slicer, error) {
		switch s.InnerSlicer {
		case "", "greedy":
			return slicer.NewGreedy(), nil
		case "knapsack":
			return knapsack()
		}
		return nil, specError("inner_slicer", s.InnerSlicer, `must be "greedy" or "knapsack"`)
	}
	entries := func() ([]slicer.CountQuotaEntry, slicer.ScarcityBehavior, error) {
		out := make([]slicer.CountQuotaEntry, len(s.Entries))
		for i, e := range s.Entries {
			ce, err := slicer.NewCountQuotaEntry(e.Kind, e.RequireCount, e.CapCount)
			if err != nil {
				return nil, 0, wrapSpecError(fmt.Sprintf("entries[%d]", i), err)
			}
			out[i] = ce
		}
		sc := slicer.ScarcityDegrade
		if s.ScarcityBehavior != "" {
			var err error
			if sc, err = slicer.ParseScarcityBehavior(s.ScarcityBehavior); err != nil {
				return nil, 0, specError("scarcity_behavior", s.ScarcityBehavior, `must be "degrade" or "throw"`)
			}
		}
		return out, sc, nil
	}
	switch s.Slicer {
	case "greedy":
		if err := check(); err != nil {
			return nil, err
		}
		return slicer.NewGreedy(), nil
	case "knapsack":
		if err := check("bucket_size", "table_limit"); err != nil {
			return nil, err
		}
		return knapsack()
	case "quota":
		if err := check(innerKeys("quotas")...); err != nil {
			return nil, err
		}
		qs := make([]slicer.QuotaEntry, 0, len(s.Quotas))
		for _, q := range s.Quotas {
			req, capv := 0.0, 100.0
			if q.Require != nil {
				req = float64(*q.Require)
			}
			if q.Cap != nil {
				capv = float64(*q.Cap)
			}
			qs = append(qs, slicer.RequireCap(q.Kind, req, capv))
		}
		set, err := slicer.NewQuotaSet(qs...)
		if err != nil {
			return nil, wrapSpecError("quotas", err)
		}
		in, err := inner()
		if err != nil {
			return nil, err
		}
		q, err := slicer.NewQuota(set, in)
		if err != nil {
			return nil, wrapSpecError("slicer", err)
		}
		return q, nil
	case "count_quota":
		if err := check(innerKeys("entries", "scarcity_behavior")...); err != nil {
			return nil, err
		}
		es, sc, err := entries()
		if err != nil {
			return nil, err
		}
		in, err := inner()
		if err != nil {
			return nil, err
		}
		cq, err := slicer.NewCountQuota(es, in, sc)
		if err != nil {
			return nil, wrapSpecError("slicer", err)
		}
		return cq, nil
	case "count_constrained_knapsack":
		if err := check("bucket_size", "table_limit", "entries", "scarcity_behavior"); err != nil {
			return nil, err
		}
		es, sc, err := entries()
		if err != nil {
			return nil, err
		}
		k, err := knapsack()
		if err != nil {
			return nil, err
		}
		cck, err := slicer.NewCountConstrainedKnapsack(es, k, sc)
		if err != nil {
			return nil, wrapSpecError("slicer", err)
		}
		return cck, nil
	}
	return nil, specError("slicer", s.Slicer, "must be one of "+strings.Join(slicerTypes, ", "))
}

// describeSlicer sets the slicer keys of spec from s.
func describeSlicer(spec *Spec, s cupel.Slicer) error {
	countEntries := func(es []slicer.CountQuotaEntry) []CountEntrySpec {
		out := make([]CountEntrySpec, len(es))
		for i, e := range es {
			out[i] = CountEntrySpec{Kind: e.Kind(), RequireCount: e.RequireCount(), CapCount: e.CapCount()}
		}
		return out
	}
	knapsack := func(k *slicer.Knapsack) {
		spec.BucketSize, spec.TableLimit = cupel.Ptr(k.BucketSize()), k.TableLimit()
	}
	inner := func(in cupel.Slicer) error {
		switch in := in.(type) {
		case *slicer.Greedy:
			if in != nil {
				spec.InnerSlicer = "greedy"
				return nil
			}
		case *slicer.Knapsack:
			if in != nil {
				spec.InnerSlicer = "knapsack"
				knapsack(in)
				return nil
			}
		}
		return specError("inner_slicer", typeNameOrNil(in), "a policy file's inner slicer is greedy or knapsack")
	}
	if enginehook.IsNil(s) { // a typed nil has no configuration to read
		return specError("slicer", typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *slicer.Greedy:
		spec.Slicer = "greedy"
		return nil
	case *slicer.Knapsack:
		spec.Slicer = "knapsack"
		knapsack(s)
		return nil
	case *slicer.Quota:
		spec.Slicer, spec.Quotas = "quota", []QuotaSpec{}
		for _, e := range s.Quotas().Entries() {
			q := QuotaSpec{Kind: e.Kind()}
			if v, ok := e.Require(); ok {
				q.Require = cupel.Ptr(Float(v))
			}
			if v, ok := e.Cap(); ok {
				q.Cap = cupel.Ptr(Float(v))
			}
			spec.Quotas = append(spec.Quotas, q)
		}
		return inner(s.Inner())
	case *slicer.CountQuota:
		spec.Slicer, spec.Entries, spec.ScarcityBehavior = "count_quota", countEntries(s.Entries()), strings.ToLower(s.Scarcity().String())
		return inner(s.Inner())
	case *slicer.CountConstrainedKnapsack:
		spec.Slicer, spec.Entries, spec.ScarcityBehavior = "count_constrained_knapsack", countEntries(s.Entries()), strings.ToLower(s.Scarcity().String())
		knapsack(s.Knapsack())
		return nil
	}
	return specError("slicer", typeNameOrNil(s), "is not a built-in slicer")
}
