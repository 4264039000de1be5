package runner_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/offline"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// answerOffline plays another implementation: it reads cases.jsonl and
// writes results.jsonl with the oracle's answers.
func answerOffline(dir string, drop int) {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join(dir, offline.CasesFile))
	Expect(err).NotTo(HaveOccurred())
	o := newOracle()
	var out bytes.Buffer
	hello, _ := json.Marshal(protocol.NewHelloResponse(o.Info))
	out.Write(append(hello, '\n'))
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == drop {
			continue
		}
		var m protocol.RunMessage
		Expect(json.Unmarshal([]byte(line), &m)).To(Succeed())
		Expect(line).NotTo(ContainSubstring("expect"), "expectations are never sent")
		res, _ := o.Run(ctx(), m.Request)
		b, _ := json.Marshal(protocol.ResultMessage{Type: protocol.TypeResult, Seq: m.Seq, ID: m.ID, Result: res})
		out.Write(append(b, '\n'))
	}
	Expect(os.WriteFile(filepath.Join(dir, offline.ResultsFile), out.Bytes(), 0o644)).To(Succeed())
}

var _ = Describe("Offline export and verify", func() {
	It("round-trips: export, answer elsewhere, verify with the same verdict as a live run", func() {
		s := fixtures()
		dir := GinkgoT().TempDir()
		Expect(offline.Export(s, s.Cases, dir)).To(Succeed())
		m, err := offline.ReadManifest(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Suite.Digest).To(Equal(s.Digest))
		Expect(m.Cases).To(Equal(14))
		answerOffline(dir, -1)
		f, _ := os.Open(filepath.Join(dir, offline.ResultsFile))
		defer f.Close()
		res, err := offline.ReadResults(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Check(s.Cases, s.Digest)).To(Succeed())
		rep, err := runner.RunSuite(ctx(), res, s, runner.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Level).To(Equal(runner.LevelFullyConformant))
		Expect(rep.Implementation.Name).To(Equal("oracle"))
	})

	It("fails verification when a case has no result or two", func() {
		s := fixtures()
		dir := GinkgoT().TempDir()
		Expect(offline.Export(s, s.Cases, dir)).To(Succeed())
		answerOffline(dir, 4)
		f, _ := os.Open(filepath.Join(dir, offline.ResultsFile))
		res, err := offline.ReadResults(f)
		f.Close()
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Check(s.Cases, s.Digest)).To(MatchError(protocol.ErrInfrastructure))

		data, _ := os.ReadFile(filepath.Join(dir, offline.ResultsFile))
		lines := strings.SplitAfter(string(data), "\n")
		_, err = offline.ReadResults(strings.NewReader(string(data) + lines[1]))
		Expect(err).To(MatchError(ContainSubstring("more than one result")))
		_, err = offline.ReadResults(strings.NewReader(strings.Join(lines[1:], "")))
		Expect(err).To(MatchError(ContainSubstring("no hello line")))
		_, err = offline.ReadResults(strings.NewReader(lines[0] + "not json\n"))
		Expect(err).To(MatchError(protocol.ErrProtocol))
	})

	It("rejects results for another suite when the hello echoes a digest", func() {
		s := fixtures()
		h := protocol.NewHelloResponse(protocol.Identity{Name: "x"})
		h.Suite = &protocol.HelloSuite{Digest: "0000"}
		b, _ := json.Marshal(h)
		res, err := offline.ReadResults(bytes.NewReader(append(b, '\n')))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Check(nil, s.Digest)).To(MatchError(ContainSubstring("not " + s.Digest)))
	})
})
