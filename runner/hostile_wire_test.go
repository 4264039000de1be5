package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/enginebaseline"
	"github.com/cupel-go/go-cupel/internal/hostile"
	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// The wire variants of internal/hostile forge a pass: each rewrites
// go-cupel's honest result lines so that their documented fields, read
// byte for byte, are wrong, while a reader matching keys without regard
// to case, or merging repeated objects, reads the honest answer back.
// Run live over the protocol on the full embedded suite, and read from
// an offline results.jsonl, no line a variant changed may pass its case,
// and so no variant that changed a line reaches the level go-cupel does.
var _ = Describe("the hostile wire variants", Ordered, func() {
	var adapter string
	var suite *casefile.Suite
	// honest holds go-cupel's result line of each case (seq 1), by ID.
	honest := map[string][]byte{}

	BeforeAll(func() {
		adapter = hostileAdapter
		var err error
		suite, err = casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		for _, c := range suite.Cases {
			honest[c.ID] = honestLine(c)
		}
	})

	// forged reports whether variant changes the result line of case id.
	forged := func(variant, id string) bool {
		got := hostile.Rewrite(variant, 1, honest[id])
		return len(got) != 1 || !bytes.Equal(got[0], honest[id])
	}

	// check holds a report of variant to the rule: every case whose line
	// it changed is a protocol error (or not run, once the session's
	// restarts are spent), never a pass, and the report keeps the line.
	check := func(variant string, rep *runner.Report) (changed int) {
		GinkgoHelper()
		refused := 0
		for _, c := range rep.Cases {
			if !forged(variant, c.ID) {
				continue
			}
			changed++
			Expect(c.Outcome).To(BeElementOf(protocol.OutcomeError, protocol.OutcomeNotRun), "%s: %s: %s", variant, c.ID, c.Message)
			if c.Outcome == protocol.OutcomeError {
				refused++
				Expect(c.Message).To(Or(ContainSubstring("refused"), ContainSubstring("invalid result line"), ContainSubstring("not JSON")), "%s: %s", variant, c.ID)
				Expect(c.Line).NotTo(BeEmpty(), "%s: %s", variant, c.ID)
			}
		}
		if changed == 0 {
			return 0
		}
		Expect(refused).To(BeNumerically(">", 0), variant)
		Expect(rep.Level.AtLeast(rep.RequireLevel)).To(BeFalse(), variant)
		return changed
	}

	// unused are the variants of fields go-cupel's answers to the embedded
	// suite never state: they change no line. The top-level reason goes
	// only with "unsupported", which go-cupel answers only where int has
	// 32 bits (internal/enginebaseline): there the reason variants forge lines
	// like the rest.
	unused := []string{"wire-twin-case-reason", "wire-twin-fold-reason", "wire-dup-reason"}
	if strconv.IntSize < 64 {
		unused = nil
	}

	It("go-cupel's honest lines reach go-cupel's level through the hostile adapter", func() {
		rep := hostileRun(adapter, "honest")
		Expect(rep.Level).To(Equal(enginebaseline.EngineLevel()), rep.LevelReason)
		// Every case passes, but where int has 32 bits the cases whose
		// integers need 64 (internal/enginebaseline), which go-cupel answers
		// "unsupported" there.
		for _, c := range rep.Cases {
			if c.Outcome != protocol.OutcomePass {
				Expect(strconv.IntSize).To(Equal(32), "%s: %s %s", c.ID, c.Outcome, c.Message)
				Expect(c.Outcome).To(Equal(protocol.OutcomeUnsupported), c.ID)
				Expect(c.Message).To(ContainSubstring("does not fit in this platform's 32-bit int"), c.ID)
			}
		}
	})

	It("refuses every forged line live over the protocol", func() {
		Expect(len(hostile.WireVariants)).To(BeNumerically(">", 60))
		names := sweepSample(hostile.WireVariants)
		// The runs are independent: four at a time, checked in order.
		type outcome struct {
			rep *runner.Report
			err error
		}
		var live []string
		for _, name := range names {
			if !strings.Contains(name, "hello") {
				live = append(live, name)
			}
		}
		outcomes := make([]chan outcome, len(live))
		sem := make(chan struct{}, 4)
		for i, name := range live {
			outcomes[i] = make(chan outcome, 1)
			go func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				rep, err := runHostile(adapter, name)
				outcomes[i] <- outcome{rep, err}
			}()
		}
		var none []string
		for i, name := range live {
			o := <-outcomes[i]
			Expect(o.err).NotTo(HaveOccurred(), name)
			if check(name, o.rep) == 0 {
				none = append(none, name)
			}
		}
		var want []string
		for _, name := range live {
			if slices.Contains(unused, name) {
				want = append(want, name)
			}
		}
		Expect(none).To(ConsistOf(want))
	})

	It("refuses a forged hello", func() {
		for _, name := range []string{"wire-bom-hello", "wire-twin-case-hello-protocol", "wire-dup-hello-type"} {
			rep := hostileRun(adapter, name)
			Expect(rep.Infrastructure).To(ContainSubstring("hello"), name)
			Expect(rep.Level).To(Equal(runner.LevelNone), name)
		}
	})

	It("keeps the line of a case that did not pass as the implementation sent it, and no other", func() {
		hello, err := json.Marshal(protocol.NewHelloResponse(protocol.Identity{Name: "honest"}))
		Expect(err).NotTo(HaveOccurred())
		var file bytes.Buffer
		file.Write(append(hello, '\n'))
		first := suite.Cases[0].ID
		sent := `{"type":"result", "seq":1, "id":"` + first + `", "status":"error", "error":{"kind":"internal"}, "x":"\u00e9"}`
		file.WriteString(sent + "\n")
		for _, c := range suite.Cases[1:] {
			file.Write(append(honest[c.ID], '\n'))
		}
		res, err := offline.ReadResults(&file)
		Expect(err).NotTo(HaveOccurred())
		rep, err := runner.Run(context.Background(), res, runner.Options{})
		Expect(err).NotTo(HaveOccurred())
		for _, c := range rep.Cases {
			if c.ID == first {
				Expect(c.Outcome).To(Equal(protocol.OutcomeError))
				Expect(c.Line).To(Equal(sent))
				Expect(c.Actual.Error.Kind).To(Equal("internal"))
				continue
			}
			if c.Outcome == protocol.OutcomeUnsupported {
				// go-cupel's honest answer to a case whose integers need
				// 64 bits where int has 32 (internal/enginebaseline): it did not
				// pass either, so its line is kept too.
				Expect(strconv.IntSize).To(Equal(32), c.ID)
				Expect(c.Line).To(Equal(string(honest[c.ID])), c.ID)
				continue
			}
			Expect(c.Outcome).To(Equal(protocol.OutcomePass), c.ID)
			Expect(c.Line).To(BeEmpty(), c.ID)
		}
	})

	It("refuses every forged line of an offline results.jsonl", func() {
		hello, err := json.Marshal(protocol.NewHelloResponse(protocol.Identity{Name: "forger", Capabilities: protocol.Capabilities{Stages: []string{"scoring"}}}))
		Expect(err).NotTo(HaveOccurred())
		for _, name := range sweepSample(hostile.WireVariants) {
			if strings.Contains(name, "hello") {
				continue
			}
			var file bytes.Buffer
			file.Write(append(hello, '\n'))
			for _, c := range suite.Cases {
				for _, l := range hostile.Rewrite(name, 1, honest[c.ID]) {
					file.Write(append(l, '\n'))
				}
			}
			res, err := offline.ReadResults(&file)
			if err != nil {
				// A line that does not name its case exactly (a forged
				// id or type, a BOM) refuses the whole file.
				Expect(err).To(MatchError(protocol.ErrInfrastructure), name)
				continue
			}
			rep, err := runner.Run(context.Background(), res, runner.Options{RequireLevel: runner.LevelFullyConformant})
			Expect(err).NotTo(HaveOccurred())
			if check(name, rep) == 0 {
				Expect(unused).To(ContainElement(name))
			}
		}
	})
})

// honestLine is go-cupel's result line for case c, sent with seq 1, as
// the hostile adapter writes it.
func honestLine(c *casefile.Case) []byte {
	GinkgoHelper()
	res, err := runner.Engine().Run(context.Background(), protocol.NewRequest(1, c))
	Expect(err).NotTo(HaveOccurred())
	line, err := json.Marshal(protocol.ResultMessage{Type: protocol.TypeResult, Seq: 1, ID: c.ID, Result: res})
	Expect(err).NotTo(HaveOccurred())
	return line
}

// hostileRun runs the embedded suite against the hostile adapter playing
// variant, requiring Fully Conformant.
func hostileRun(adapter, variant string) *runner.Report {
	GinkgoHelper()
	rep, err := runHostile(adapter, variant)
	Expect(err).NotTo(HaveOccurred(), variant)
	return rep
}

func runHostile(adapter, variant string) (*runner.Report, error) {
	p := protocol.NewProcess(protocol.ProcessOptions{
		Argv:           []string{adapter},
		Env:            append(os.Environ(), "HOSTILE="+variant),
		StartupTimeout: 30 * time.Second,
	})
	return runner.Run(context.Background(), p, runner.Options{RequireLevel: runner.LevelFullyConformant,
		Timeout: time.Minute, StartupTimeout: 30 * time.Second})
}

// sweepSample is names in the plain pass, and every fifth of them under
// the race detector or where int has 32 bits. Every variant drives the
// same code of the runner: the race pass looks for data races there, and
// the 386 pass for the width of int, which the sample finds as well as
// the whole sweep; the plain pass runs every variant.
func sweepSample(names []string) []string {
	if !testtool.Race && strconv.IntSize == 64 {
		return names
	}
	var out []string
	for i, name := range names {
		if i%5 == 0 {
			out = append(out, name)
		}
	}
	return out
}
