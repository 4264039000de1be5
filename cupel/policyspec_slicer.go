package cupel

import "fmt"

// slicerFields are the policy's slicer fields, in key order (a test keeps
// them so).
func (s *PolicySpec) slicerFields() [6]field {
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
func (s *PolicySpec) buildSlicer() (Slicer, error) {
	set := s.slicerFields()
	check := func(allowed ...string) error { return onlyFields("", "slicer "+s.Slicer, set[:], allowed...) }
	knapsack := func() (*KnapsackSlice, error) {
		bucket := DefaultBucketSize
		if s.BucketSize != nil {
			bucket = *s.BucketSize
		}
		var kopts []KnapsackOption
		if s.TableLimit != 0 {
			kopts = append(kopts, WithTableLimit(s.TableLimit))
		}
		k, err := NewKnapsackSlice(bucket, kopts...)
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
	inner := func() (Slicer, error) {
		switch s.InnerSlicer {
		case "", "greedy":
			return NewGreedySlice(), nil
		case "knapsack":
			return knapsack()
		}
		return nil, specError("inner_slicer", s.InnerSlicer, `must be "greedy" or "knapsack"`)
	}
	entries := func() ([]CountQuotaEntry, ScarcityBehavior, error) {
		out := make([]CountQuotaEntry, len(s.Entries))
		for i, e := range s.Entries {
			ce, err := NewCountQuotaEntry(e.Kind, e.RequireCount, e.CapCount)
			if err != nil {
				return nil, 0, wrapSpecError(fmt.Sprintf("entries[%d]", i), err)
			}
			out[i] = ce
		}
		sc := ScarcityDegrade
		if s.ScarcityBehavior != "" {
			var err error
			if sc, err = ParseScarcityBehavior(s.ScarcityBehavior); err != nil {
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
		return NewGreedySlice(), nil
	case "knapsack":
		if err := check("bucket_size", "table_limit"); err != nil {
			return nil, err
		}
		return knapsack()
	case "quota":
		if err := check(innerKeys("quotas")...); err != nil {
			return nil, err
		}
		qs := make([]QuotaEntry, 0, len(s.Quotas))
		for _, q := range s.Quotas {
			req, capv := 0.0, 100.0
			if q.Require != nil {
				req = float64(*q.Require)
			}
			if q.Cap != nil {
				capv = float64(*q.Cap)
			}
			qs = append(qs, RequireCap(q.Kind, req, capv))
		}
		set, err := NewQuotaSet(qs...)
		if err != nil {
			return nil, wrapSpecError("quotas", err)
		}
		in, err := inner()
		if err != nil {
			return nil, err
		}
		q, err := NewQuotaSlice(set, in)
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
		cq, err := NewCountQuotaSlice(es, in, sc)
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
		cck, err := NewCountConstrainedKnapsackSlice(es, k, sc)
		if err != nil {
			return nil, wrapSpecError("slicer", err)
		}
		return cck, nil
	}
	return nil, specError("slicer", s.Slicer, "must be one of greedy, knapsack, quota, count_quota, count_constrained_knapsack")
}

// describeSlicer sets the slicer keys of spec from s.
func describeSlicer(spec *PolicySpec, s Slicer) error {
	countEntries := func(es []CountQuotaEntry) []CountEntrySpec {
		out := make([]CountEntrySpec, len(es))
		for i, e := range es {
			out[i] = CountEntrySpec{Kind: e.Kind(), RequireCount: e.RequireCount(), CapCount: e.CapCount()}
		}
		return out
	}
	knapsack := func(k *KnapsackSlice) {
		spec.BucketSize, spec.TableLimit = Ptr(k.BucketSize()), k.TableLimit()
	}
	inner := func(in Slicer) error {
		switch in := in.(type) {
		case *GreedySlice:
			if in != nil {
				spec.InnerSlicer = "greedy"
				return nil
			}
		case *KnapsackSlice:
			if in != nil {
				spec.InnerSlicer = "knapsack"
				knapsack(in)
				return nil
			}
		}
		return specError("inner_slicer", typeNameOrNil(in), "a policy file's inner slicer is greedy or knapsack")
	}
	if isNil(s) { // a typed nil has no configuration to read
		return specError("slicer", typeNameOrNil(s), "is nil")
	}
	switch s := s.(type) {
	case *GreedySlice:
		spec.Slicer = "greedy"
		return nil
	case *KnapsackSlice:
		spec.Slicer = "knapsack"
		knapsack(s)
		return nil
	case *QuotaSlice:
		spec.Slicer, spec.Quotas = "quota", []QuotaSpec{}
		for _, e := range s.Quotas().Entries() {
			q := QuotaSpec{Kind: e.Kind()}
			if v, ok := e.Require(); ok {
				q.Require = Ptr(Float(v))
			}
			if v, ok := e.Cap(); ok {
				q.Cap = Ptr(Float(v))
			}
			spec.Quotas = append(spec.Quotas, q)
		}
		return inner(s.Inner())
	case *CountQuotaSlice:
		spec.Slicer, spec.Entries, spec.ScarcityBehavior = "count_quota", countEntries(s.Entries()), asciiLower(s.Scarcity().String())
		return inner(s.Inner())
	case *CountConstrainedKnapsackSlice:
		spec.Slicer, spec.Entries, spec.ScarcityBehavior = "count_constrained_knapsack", countEntries(s.Entries()), asciiLower(s.Scarcity().String())
		knapsack(s.Knapsack())
		return nil
	}
	return specError("slicer", typeNameOrNil(s), "is not a built-in slicer")
}
