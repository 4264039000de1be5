package analysis

import (
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
)

// DryRun runs items under budget with a temporary pipeline built from policy
// and returns the result and its report: the spec's DryRunWithPolicy (spec
// chapter 41 (Policy Sensitivity)). The budget is always explicit: a Policy
// carries none. It validates and builds the pipeline on every call: to run
// one configuration repeatedly, build a [cupel.Pipeline] once and call its
// Run with [cupel.WithReport].
func DryRun(items []*cupel.ContextItem, budget cupel.ContextBudget, policy cupel.Policy) (cupel.Result, *cupel.SelectionReport, error) {
	p, err := cupel.NewPipeline(policy)
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return dryRun(p, items, budget)
}

// dryRun is Run with WithReport, returning the report.
func dryRun(p *cupel.Pipeline, items []*cupel.ContextItem, budget cupel.ContextBudget) (cupel.Result, *cupel.SelectionReport, error) {
	rep := new(cupel.SelectionReport)
	res, err := p.Run(items, budget, cupel.WithReport(rep))
	if err != nil {
		return cupel.Result{}, nil, err
	}
	return res, rep, nil
}

// LabeledPolicy is a policy variant of a sensitivity comparison.
type LabeledPolicy struct {
	Label  string
	Policy cupel.Policy
}

// LabeledPipeline is a pipeline variant of a sensitivity comparison.
type LabeledPipeline struct {
	Label    string
	Pipeline *cupel.Pipeline
}

// ItemStatus is an item's fate in one variant.
type ItemStatus int

// The item statuses.
const (
	StatusExcluded ItemStatus = iota
	StatusIncluded
)

// String returns "Included" or "Excluded".
func (s ItemStatus) String() string {
	if s == StatusIncluded {
		return "Included"
	}
	return "Excluded"
}

// MarshalText encodes the status as its name.
func (s ItemStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// VariantReport is one variant's label and report.
type VariantReport struct {
	Label  string                 `json:"label"`
	Report *cupel.SelectionReport `json:"report"`
}

// VariantStatus is an item's status under one labelled variant.
type VariantStatus struct {
	Label  string     `json:"label"`
	Status ItemStatus `json:"status"`
}

// SensitivityDiff is an item (by content) on whose inclusion at least two
// variants disagree, with its status under every variant in input order.
type SensitivityDiff struct {
	Content  string          `json:"content"`
	Statuses []VariantStatus `json:"statuses"`
}

// PolicySensitivityReport is the outcome of a sensitivity comparison.
// Variants are in input order. Diffs hold only items whose status swings;
// the spec leaves their order open, and this package lists them in the order
// their content first appears in the input items, so the report is
// deterministic.
type PolicySensitivityReport struct {
	Variants []VariantReport   `json:"variants"`
	Diffs    []SensitivityDiff `json:"diffs"`
}

const sensitivityMinMessage = "At least two variants are required for a sensitivity comparison."

// PolicySensitivity dry-runs items under budget with every policy and diffs
// the inclusions by content (spec chapter 41 (Policy Sensitivity)). Fewer than
// two variants is an error wrapping [cupel.ErrInvalidArgument] with the spec's
// message; a variant that fails to build or run fails the comparison, naming
// its label.
func PolicySensitivity(items []*cupel.ContextItem, budget cupel.ContextBudget, variants ...LabeledPolicy) (*PolicySensitivityReport, error) {
	if len(variants) < 2 {
		return nil, sensitivityTooFew(len(variants))
	}
	pipes := make([]LabeledPipeline, len(variants))
	for i, v := range variants {
		p, err := cupel.NewPipeline(v.Policy)
		if err != nil {
			return nil, &VariantError{Label: v.Label, Err: err}
		}
		pipes[i] = LabeledPipeline{Label: v.Label, Pipeline: p}
	}
	return PipelineSensitivity(items, budget, pipes...)
}

// PipelineSensitivity is PolicySensitivity over built pipelines, for
// configurations a caller has already assembled.
func PipelineSensitivity(items []*cupel.ContextItem, budget cupel.ContextBudget, variants ...LabeledPipeline) (*PolicySensitivityReport, error) {
	if len(variants) < 2 {
		return nil, sensitivityTooFew(len(variants))
	}
	rep := &PolicySensitivityReport{Variants: make([]VariantReport, len(variants))}
	included := make([]map[string]bool, len(variants))
	for i, v := range variants {
		if v.Pipeline == nil {
			return nil, &VariantError{Label: v.Label, Err: invalidArgument("PipelineSensitivity", "variants["+strconv.Itoa(i)+"].Pipeline", nil, "must not be nil")}
		}
		_, r, err := dryRun(v.Pipeline, items, budget)
		if err != nil {
			return nil, &VariantError{Label: v.Label, Err: err}
		}
		rep.Variants[i] = VariantReport{Label: v.Label, Report: r}
		included[i] = make(map[string]bool, len(r.Included))
		for _, in := range r.Included {
			included[i][in.Item.Content()] = true
		}
	}
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if it == nil || seen[it.Content()] {
			continue
		}
		content := it.Content()
		seen[content] = true
		first := included[0][content]
		swings := false
		for i := 1; i < len(variants); i++ {
			if included[i][content] != first {
				swings = true
				break
			}
		}
		if !swings {
			continue
		}
		d := SensitivityDiff{Content: content, Statuses: make([]VariantStatus, len(variants))}
		for i, v := range variants {
			st := StatusExcluded
			if included[i][content] {
				st = StatusIncluded
			}
			d.Statuses[i] = VariantStatus{Label: v.Label, Status: st}
		}
		rep.Diffs = append(rep.Diffs, d)
	}
	return rep, nil
}

func sensitivityTooFew(n int) error {
	return invalidArgument("PolicySensitivity", "variants", n, sensitivityMinMessage)
}

// VariantError reports which variant of a sensitivity comparison failed.
type VariantError struct {
	Label string
	Err   error
}

// Error names the variant and its error.
func (e *VariantError) Error() string {
	return "cupel: variant " + strconv.Quote(e.Label) + ": " + e.Err.Error()
}

// Unwrap returns the variant's error.
func (e *VariantError) Unwrap() error { return e.Err }
