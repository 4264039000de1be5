package runner

import (
	"context"
	"fmt"
	"sync"
)

// NamedReport is one implementation's report under the name that
// reports comparing several implementations show it by (the JUnit report
// of a comparison and the matrix).
type NamedReport struct {
	// Name identifies the implementation in every output; names are unique.
	Name string
	// Report is the implementation's report.
	Report *Report
}

// NamedImpl is an implementation under the name that reports comparing
// several implementations show it by.
type NamedImpl struct {
	Name string
	Impl Implementation
}

// RunMany runs the suite of opts against every implementation at once,
// each in its own goroutine through [Run], and returns their reports in
// the order of impls. The names must be non-empty and unique.
//
// opts applies to every run; opts.OnResult, when set, is called from
// several goroutines at once. The error is the first usage error of a run
// (in the order of impls), or an unreadable suite; an implementation that
// cannot be run gives a report whose Infrastructure field says why, as
// with Run, and the other runs go on.
func RunMany(ctx context.Context, impls []NamedImpl, opts Options) ([]*Report, error) {
	if len(impls) == 0 {
		return nil, fmt.Errorf("%w: no implementation to run", ErrUsage)
	}
	seen := map[string]bool{}
	for i, n := range impls {
		switch {
		case n.Name == "":
			return nil, fmt.Errorf("%w: implementation %d has no name", ErrUsage, i+1)
		case n.Impl == nil:
			return nil, fmt.Errorf("%w: implementation %q is nil", ErrUsage, n.Name)
		case seen[n.Name]:
			return nil, fmt.Errorf("%w: two implementations are named %q", ErrUsage, n.Name)
		}
		seen[n.Name] = true
	}
	reports := make([]*Report, len(impls))
	errs := make([]error, len(impls))
	var wg sync.WaitGroup
	for i, n := range impls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = Run(ctx, n.Impl, opts)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", impls[i].Name, err)
		}
	}
	return reports, nil
}
