package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The hostile variants of internal/hostile/bounds.go send oversized fields;
// every text the run keeps must be within its cap, cut visibly, and every
// case judged as its documented fields say.
var _ = Describe("Hostile implementations that send oversized fields", Ordered, func() {
	var adapter string
	BeforeAll(func() { adapter = hostileAdapter })

	// boundsRun runs four fixtures (one with a selection report) against
	// the variant.
	boundsRun := func(variant string) *runner.Report {
		GinkgoHelper()
		abs, _ := filepath.Abs("testdata/suite")
		p := protocol.NewProcess(protocol.ProcessOptions{
			Argv:           []string{adapter},
			Env:            append(os.Environ(), "HOSTILE="+variant, "HOSTILE_SUITE="+abs),
			StartupTimeout: 2 * time.Minute,
		})
		opts := fixtureOptions()
		opts.Run = "recency-basic|diagnostics-duplicate-content|greedy-density-order|pipeline-basic"
		// Not meant to time out: 16 MiB lines take a loaded machine time.
		opts.Timeout, opts.StartupTimeout = 2*time.Minute, 2*time.Minute
		rep, err := runner.Run(context.Background(), p, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Infrastructure).To(BeEmpty())
		return rep
	}

	// within checks every text of the report against its cap and returns
	// the cases that ran.
	within := func(rep *runner.Report) []runner.CaseResult {
		GinkgoHelper()
		id := rep.Implementation
		for _, s := range []string{id.Name, id.Version, id.Language, id.Homepage} {
			Expect(utf8.RuneCountInString(s)).To(BeNumerically("<=", bound.MaxName))
		}
		for _, l := range id.Capabilities.Lists() {
			Expect(len(l.Values)).To(BeNumerically("<=", bound.MaxList))
			for _, v := range l.Values {
				Expect(utf8.RuneCountInString(v)).To(BeNumerically("<=", bound.MaxName))
			}
		}
		var ran []runner.CaseResult
		for _, c := range rep.Cases {
			if c.Outcome == protocol.OutcomeSkip {
				continue
			}
			ran = append(ran, c)
			Expect(len(c.Message)).To(BeNumerically("<=", bound.MaxText), c.ID)
			Expect(len(c.Stderr)).To(BeNumerically("<=", bound.MaxText), c.ID)
			Expect(len(strings.Join(c.Details, "\n"))).To(BeNumerically("<", bound.MaxText), c.ID)
			if c.Actual != nil {
				b, err := json.Marshal(c.Actual)
				Expect(err).NotTo(HaveOccurred())
				// Its texts are cut one by one: a reason, or an error's
				// kind and message.
				Expect(len(b)).To(BeNumerically("<=", 2*bound.MaxText+64), c.ID)
			}
		}
		Expect(ran).To(HaveLen(4))
		var buf bytes.Buffer
		Expect(rep.WriteJSON(&buf)).To(Succeed())
		Expect(buf.Len()).To(BeNumerically("<", 4*8*bound.MaxText), "the JSON report of 4 cases")
		return ran
	}
	cutText := MatchRegexp(` … \[\d+ bytes cut\]$`)
	cutName := MatchRegexp(`^x+ … \[\d+ characters cut\]$`)

	It("keeps a huge unsupported reason cut at 64 KiB, and the case unsupported", func() {
		for _, c := range within(boundsRun("huge-reason")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeUnsupported), c.ID)
			Expect(c.Message).To(HavePrefix("xxxx"))
			Expect(c.Message).To(cutText)
			Expect(c.Actual.Reason).To(Equal(c.Message))
		}
	})
	It("keeps a huge error kind and message cut, and the case an error", func() {
		for _, c := range within(boundsRun("huge-error")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeError), c.ID)
			Expect(c.Message).To(HavePrefix("implementation error: xxx"))
			Expect(c.Message).To(cutText)
			Expect(c.Actual.Error.Kind).To(cutName)
			Expect(c.Actual.Error.Message).To(cutText)
		}
	})
	It("fails a rejection with a huge kind, the kind kept cut", func() {
		for _, c := range within(boundsRun("huge-kind")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeFail), c.ID)
			Expect(c.Message).To(MatchRegexp(`^rejected (with|unexpectedly:) x+ … \[\d+ characters cut\]`))
			Expect(c.Actual.Error.Kind).To(cutName)
		}
	})
	It("keeps a huge status cut at 200 characters, and the case an error", func() {
		for _, c := range within(boundsRun("huge-status")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeError), c.ID)
			Expect(c.Message).To(MatchRegexp(`^invalid result status "x+ … \[\d+ characters cut\]"$`))
			Expect(c.Actual.Kind).To(cutName)
		}
	})
	It("keeps a huge name cut at 200 characters, and judges the honest answers", func() {
		rep := boundsRun("huge-name")
		for _, c := range within(rep) {
			Expect(c.Outcome).To(Equal(protocol.OutcomePass), c.ID+": "+c.Message)
		}
		Expect(rep.Implementation.Name).To(cutName)
		Expect(utf8.RuneCountInString(rep.Implementation.Name)).To(Equal(bound.MaxName))
	})
	It("keeps every huge hello text and capability list cut", func() {
		rep := boundsRun("huge-hello")
		within(rep)
		id := rep.Implementation
		for _, s := range []string{id.Name, id.Version, id.Language, id.Homepage, id.Capabilities.Features[0]} {
			Expect(s).To(cutName)
		}
		Expect(id.Capabilities.Scorers).To(HaveLen(bound.MaxList))
		Expect(id.Capabilities.Scorers[bound.MaxList-1]).To(Equal("… [99937 more cut]"))
	})
	It("keeps a bounded stderr tail of a flood under the limit", func() {
		for _, c := range within(boundsRun("huge-stderr")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeError), c.ID)
			Expect(c.Stderr).To(MatchRegexp(`^\[… \d+ bytes of stderr omitted …\]\nx+$`))
		}
	})
	It("fails a million scores and keeps the result without its output, saying so", func() {
		for _, c := range within(boundsRun("wide-output")) {
			Expect(c.Outcome).To(Equal(protocol.OutcomeFail), c.ID)
			Expect(c.Actual.Output).To(BeNil())
			Expect(c.ActualCut).To(MatchRegexp(`^the output is not kept: the result is \d+ bytes of JSON, over the 64 KiB the runner keeps$`))
		}
	})
	It("ignores a huge unknown value and 500000 unknown keys", func() {
		for _, v := range []string{"wide-unknown", "many-keys"} {
			for _, c := range within(boundsRun(v)) {
				Expect(c.Outcome).To(Equal(protocol.OutcomePass), v+" "+c.ID+": "+c.Message)
			}
		}
	})
	It("never misreads an unknown value nested 5000 deep", func() {
		for _, c := range within(boundsRun("deep-unknown")) {
			Expect(c.Outcome).To(BeElementOf(protocol.OutcomePass, protocol.OutcomeError), c.ID+": "+c.Message)
		}
	})
	It("fails a selection report with huge reasons, its message and diff kept cut", func() {
		cut := 0
		for _, c := range within(boundsRun("huge-diagnostics")) {
			if c.ID != "optional/pipeline/diagnostics-duplicate-content" {
				Expect(c.Outcome).To(Equal(protocol.OutcomePass), c.ID+": "+c.Message)
				continue
			}
			cut++
			Expect(c.Outcome).To(Equal(protocol.OutcomeFail))
			Expect(c.Message).To(cutText)
			Expect(c.Details[len(c.Details)-1]).To(MatchRegexp(`^… \[\d+ more lines \(\d+ bytes\) cut\]$`))
			Expect(c.ActualCut).NotTo(BeEmpty())
		}
		Expect(cut).To(Equal(1))
	})
})

// hugeImpl is an implementation in process that answers every case with an
// error whose message is 16 MiB, and names itself with 16 MiB.
type hugeImpl struct{}

func (hugeImpl) Hello(ctx context.Context) (protocol.Identity, error) {
	info, err := runner.Engine().Hello(ctx)
	info.Name = strings.Repeat("n", protocol.MaxLine)
	return info, err
}

func (hugeImpl) Run(context.Context, protocol.Request) (protocol.Result, error) {
	return protocol.Result{Kind: protocol.ResultError, Error: &protocol.ErrorInfo{Kind: "internal", Message: strings.Repeat("m", protocol.MaxLine)}}, nil
}

var _ = Describe("Implementations in process, offline results and explore with oversized fields", func() {
	hugeText := strings.Repeat("m", protocol.MaxLine)
	It("cuts what a run keeps of an implementation in process", func() {
		rep, err := runner.Run(context.Background(), hugeImpl{}, fixtureOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(utf8.RuneCountInString(rep.Implementation.Name)).To(Equal(bound.MaxName))
		for _, c := range rep.Cases {
			Expect(c.Outcome).To(Equal(protocol.OutcomeError))
			Expect(len(c.Message)).To(BeNumerically("<=", bound.MaxText))
			Expect(c.Actual.Error.Message).To(HaveSuffix(" bytes cut]"))
		}
	})
	It("cuts what verify keeps of an offline results file", func() {
		var file bytes.Buffer
		file.WriteString(`{"type":"hello","protocol":"cupel-conform/1","implementation":{"name":"` + hugeText[:1<<20] + `"}}` + "\n")
		suite := fixtures()
		for i, c := range suite.Cases {
			line, _ := json.Marshal(protocol.ResultMessage{Type: protocol.TypeResult, Seq: i + 1, ID: c.ID,
				Result: protocol.Result{Kind: protocol.ResultUnsupported, Reason: hugeText[:protocol.MaxLine-4<<10]}})
			file.Write(append(line, '\n'))
		}
		res, err := offline.ReadResults(&file)
		Expect(err).NotTo(HaveOccurred())
		rep, err := runner.Run(context.Background(), res, fixtureOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Implementation.Name).To(HaveSuffix(" characters cut]"))
		for _, c := range rep.Cases {
			Expect(c.Outcome).To(Equal(protocol.OutcomeUnsupported))
			Expect(c.Message).To(HaveSuffix(" bytes cut]"))
			Expect(len(c.Actual.Reason)).To(BeNumerically("<=", bound.MaxText))
		}
	})
	It("cuts what explore keeps of a divergence", func() {
		rep, err := explore.Run(context.Background(), hugeImpl{}, explore.Options{Seed: 1, Cases: 20, ShrinkTime: time.Second})
		Expect(err).NotTo(HaveOccurred())
		Expect(utf8.RuneCountInString(rep.Implementation.Name)).To(Equal(bound.MaxName))
		Expect(rep.Divergences).NotTo(BeEmpty())
		for _, d := range rep.Divergences {
			Expect(len(d.Comparison.Message)).To(BeNumerically("<=", bound.MaxText))
			Expect(d.Actual.Error.Message).To(HaveSuffix(" bytes cut]"))
		}
	})
})
