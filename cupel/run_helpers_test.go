package cupel_test

import (
	"context"
	"iter"

	"github.com/cupel-go/go-cupel/cupel"
)

// dryRun is p.Run with a report, returned beside the result as the tests
// compare them.
func dryRun(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget, opts ...cupel.RunOption) (cupel.Result, *cupel.SelectionReport, error) {
	return dryRunContext(context.Background(), p, items, budget, opts...)
}

// dryRunPolicy is dryRun on a pipeline built from policy for this one call.
func dryRunPolicy(items []*cupel.ContextItem, budget cupel.ContextBudget, policy cupel.Policy) (cupel.Result, *cupel.SelectionReport, error) {
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return dryRun(p, items, budget)
}

// dryRunContext is p.RunContext with a report.
func dryRunContext(ctx context.Context, p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget, opts ...cupel.RunOption) (cupel.Result, *cupel.SelectionReport, error) {
	rep := new(cupel.SelectionReport)
	res, err := p.RunContext(ctx, items, budget, append(opts, cupel.WithReport(rep))...)
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return res, rep, nil
}

// dryRunStream is p.RunStreamContext with a report.
func dryRunStream(ctx context.Context, p *cupel.Pipeline, candidates iter.Seq[*cupel.ContextItem], budget cupel.ContextBudget, opts ...cupel.RunOption) (cupel.Result, *cupel.SelectionReport, error) {
	rep := new(cupel.SelectionReport)
	res, err := p.RunStreamContext(ctx, candidates, budget, append(opts, cupel.WithReport(rep))...)
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return res, rep, nil
}
