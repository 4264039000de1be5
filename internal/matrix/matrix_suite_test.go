package matrix_test

import (
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

func TestMatrix(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "matrix")
}

// result is one case of a fixture report.
type result struct {
	id      string
	status  protocol.Outcome
	message string
	details []string
}

// fixtureReport builds a report of the given results as runner.Run would
// write it (the tier and stage come from the id).
func fixtureReport(name, version string, level runner.Level, reason string, results ...result) *runner.Report {
	r := &runner.Report{
		Schema:         runner.ReportSchema,
		Runner:         protocol.RunnerIdentity{Name: "cupel-conform", Version: "v1.2.3"},
		Suite:          runner.SuiteIdentity{Source: "embedded", SpecVersion: "1.3", Digest: "0123456789abcdef0123", Cases: len(results)},
		Implementation: protocol.Identity{Name: name, Version: version, Language: "go"},
		Level:          level,
		LevelReason:    reason,
		Started:        time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC),
	}
	for _, res := range results {
		tier, stage := split(res.id)
		cr := runner.CaseResult{ID: res.id, Tier: tier, Stage: stage, Name: "name of " + res.id,
			Outcome: res.status, Message: res.message, Details: res.details}
		if res.status == protocol.OutcomeFail {
			cr.Actual = &protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{Ordered: []int{1, 0}}}
			cr.Stderr = "debug: placing 2 items\n"
		}
		if res.status == protocol.OutcomeUnsupported {
			cr.Actual = &protocol.Result{Kind: protocol.ResultUnsupported, Reason: "not implemented"}
		}
		r.Cases = append(r.Cases, cr)
	}
	return r
}

func split(id string) (tier, stage string) {
	parts := strings.SplitN(id, "/", 3)
	return parts[0], parts[1]
}

const (
	placeTies  = "required/placing/u-shaped-tied-scores"
	placeBasic = "required/placing/chronological-basic"
	scoreRec   = "required/scoring/recency-basic"
	scoreKind  = "required/scoring/kind-default-weights"
	sliceGreed = "required/slicing/greedy-basic"
	pipeBasic  = "optional/pipeline/pipeline-basic"
	scoreDecay = "optional/scoring/decay-future-dated"
)

var tiesDiff = []string{
	`output differs (in order): expected ["b", "a"], got ["a", "b"]`,
	"  first difference at position 0",
	`  !  0  expected "b"                      actual #0 "a"`,
	`  !  1  expected "a"                      actual #1 "b"`,
}

// threeImpls is go-cupel (passes everything), python (passes what it
// implements) and broken (python with a bug in u-shaped ties).
func threeImpls() []runner.NamedReport {
	unsup := func(id string) result {
		return result{id: id, status: protocol.OutcomeUnsupported, message: "unsupported: not implemented"}
	}
	pass := func(id string) result { return result{id: id, status: protocol.OutcomePass} }
	all := []string{scoreRec, scoreKind, sliceGreed, placeBasic, placeTies, scoreDecay, pipeBasic}
	var goResults []result
	for _, id := range all {
		goResults = append(goResults, pass(id))
	}
	goRep := fixtureReport("go-cupel", "devel", runner.LevelFullyConformant, "all 5 required and 2 optional cases pass", goResults...)
	pyRep := fixtureReport("cupel-python-example", "0.1.0", runner.LevelNone, "3 of 5 required cases pass",
		pass(scoreRec), unsup(scoreKind), unsup(sliceGreed), pass(placeBasic), pass(placeTies), unsup(scoreDecay), unsup(pipeBasic))
	brRep := fixtureReport("cupel-python-example", "0.1.0", runner.LevelNone, "2 of 5 required cases pass",
		pass(scoreRec), unsup(scoreKind), unsup(sliceGreed), pass(placeBasic),
		result{id: placeTies, status: protocol.OutcomeFail, message: tiesDiff[0], details: tiesDiff},
		unsup(scoreDecay), unsup(pipeBasic))
	return []runner.NamedReport{{Name: "go-cupel", Report: goRep}, {Name: "python", Report: pyRep}, {Name: "broken", Report: brRep}}
}

// caseData stands for the suite: inputs and expectations of the case
// with ties.
func caseData(id string) (matrix.CaseData, bool) {
	if id != placeTies {
		return matrix.CaseData{}, false
	}
	return matrix.CaseData{
		Input:    map[string]any{"placer": "u-shaped", "items": []map[string]any{{"index": 0, "content": "a", "score": 0.5}, {"index": 1, "content": "b", "score": 0.5}}},
		Expected: map[string]any{"ordered": []map[string]any{{"content": "b"}, {"content": "a"}}},
	}, true
}

func mustNew(entries []runner.NamedReport) *matrix.Matrix {
	GinkgoHelper()
	m, err := matrix.New(entries, matrix.Options{Case: caseData})
	Expect(err).NotTo(HaveOccurred())
	return m
}
