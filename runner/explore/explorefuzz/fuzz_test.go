package explorefuzz_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/explore/explorefuzz"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// FuzzGoCupel explores go-cupel, served over the protocol in process,
// against go-cupel in process. Plain go test runs its seed corpus (the
// embedded vectors and a few generated inputs); scripts/fuzz-explore.sh
// fuzzes it.
func FuzzGoCupel(f *testing.F) {
	explorefuzz.Fuzz(f, &served{impl: runner.Engine()}, explore.Options{Out: os.Getenv("EXPLORE_FUZZ_OUT")})
}

// planted is go-cupel with a bug: the u-shaped placer swaps the first two
// items of an output of three or more.
type planted struct{}

func (planted) Hello(ctx context.Context) (protocol.Identity, error) {
	return runner.Engine().Hello(ctx)
}

func (planted) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	r, err := runner.Engine().Run(ctx, req)
	if err == nil && r.Output != nil && req.Stage == casefile.StagePlacing && req.Case.Placer == "u-shaped" && len(r.Output.Ordered) >= 3 {
		o := *r.Output
		o.Ordered = slices.Clone(o.Ordered)
		o.Ordered[0], o.Ordered[1] = o.Ordered[1], o.Ordered[0]
		r.Output = &o
	}
	return r, err
}

var _ = Describe("the fuzz target's body", func() {
	It("finds a planted bug from a few inputs, shrinks it and writes its vector", func() {
		out := GinkgoT().TempDir()
		sess, err := explore.NewSession(context.Background(), &served{impl: planted{}}, explore.Options{Out: out})
		Expect(err).NotTo(HaveOccurred())
		defer sess.Close()
		found := ""
		for i := 0; i < 300 && found == ""; i++ {
			found = explorefuzz.Check(sess, []byte{byte(i), byte(i >> 8), 7, byte(i * 13), 3, 9, byte(i * 7)})
		}
		Expect(found).To(ContainSubstring("divergence placing / u-shaped / order"))
		rep := sess.Report()
		Expect(rep.Divergences).To(HaveLen(1))
		d := rep.Divergences[0]
		Expect(d.Index).To(Equal(-1))
		Expect(d.Case.Input.Items).To(HaveLen(3))
		data, err := os.ReadFile(d.File)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring("Found by explore's fuzz target under go test -fuzz"))
		Expect(d.File).To(HaveSuffix("/optional/placing/explore-u-shaped-order-fuzz-" + d.Input + ".toml"))
		// The written vector is an input too: it shows the bug again.
		Expect(explorefuzz.Check(sess, data)).To(ContainSubstring("divergence placing / u-shaped / order"))
	})

	It("reports each input's own case, which the input alone reproduces, and names each vector after its input", func() {
		out := GinkgoT().TempDir()
		sess, err := explore.NewSession(context.Background(), &served{impl: planted{}}, explore.Options{Out: out})
		Expect(err).NotTo(HaveOccurred())
		defer sess.Close()
		// Two inputs of the class placing / u-shaped / order, as a fuzzer
		// minimizing the first would check.
		var inputs [][]byte
		var found []*explore.Divergence
		var msgs []string
		for i := 0; i < 600 && len(inputs) < 2; i++ {
			in := []byte{byte(i), byte(i >> 8), 7, byte(i * 13), 3, 9, byte(i * 7)}
			d, err := sess.CheckInput(context.Background(), in)
			Expect(err).NotTo(HaveOccurred())
			if d != nil && d.Class == "placing / u-shaped / order" {
				inputs, found = append(inputs, in), append(found, d)
				msgs = append(msgs, explorefuzz.Check(sess, in)) // checked again: the same divergence
			}
		}
		Expect(inputs).To(HaveLen(2))
		for i, in := range inputs {
			sum := sha256.Sum256(in)
			Expect(found[i].Input).To(Equal(hex.EncodeToString(sum[:6])))
			Expect(msgs[i]).To(ContainSubstring("\ninput: sha256 " + found[i].Input + "..."))
		}
		Expect(found[0].Input).NotTo(Equal(found[1].Input))
		first, err := os.ReadFile(found[0].File)
		Expect(err).NotTo(HaveOccurred())
		Expect(found[1].File).To(BeEmpty(), "one vector a class in a session")
		Expect(msgs[1]).To(ContainSubstring("vector: not written for this input; " + found[0].File + " shows its class"))
		Expect(sess.Report().Divergences).To(HaveLen(1))
		Expect(sess.Report().Divergences[0].Count).To(Equal(4), "two inputs, each checked twice")

		// go test -run=FuzzXxx/ID: the second input alone, in a new session.
		again, err := explore.NewSession(context.Background(), &served{impl: planted{}}, explore.Options{Out: out})
		Expect(err).NotTo(HaveOccurred())
		defer again.Close()
		msg := explorefuzz.Check(again, inputs[1])
		d := again.Report().Divergences[0]
		Expect(d.Input).To(Equal(found[1].Input))
		Expect(d.Case.Input).To(Equal(found[1].Case.Input), "the case reported while fuzzing")
		Expect(d.Case.Expect).To(Equal(found[1].Case.Expect))
		Expect(d.Comparison).To(Equal(found[1].Comparison))
		lines := func(m string) []string { return strings.SplitN(m, "\n", 3)[:2] }
		Expect(lines(msg)).To(Equal(lines(msgs[1])))
		Expect(msg).To(ContainSubstring("\nvector: " + d.File))
		Expect(d.File).NotTo(Equal(found[0].File), "a file of its own")
		Expect(os.ReadFile(found[0].File)).To(Equal(first), "the first input's vector is kept")
		entries, err := os.ReadDir(filepath.Join(out, "optional", "placing"))
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(2))
	})

	It("finds no divergence on its seed corpus with go-cupel on both sides", func() {
		sess, err := explore.NewSession(context.Background(), &served{impl: runner.Engine()}, explore.Options{})
		Expect(err).NotTo(HaveOccurred())
		defer sess.Close()
		seeds := explorefuzz.Seeds()
		Expect(len(seeds)).To(BeNumerically(">", 100))
		for _, s := range seeds {
			Expect(explorefuzz.Check(sess, s)).To(BeEmpty())
		}
		rep := sess.Report()
		Expect(rep.Cases + rep.Skipped).To(Equal(len(seeds)))
		Expect(rep.Cases).To(BeNumerically(">", len(seeds)/2), "most vectors run, not skipped")
	})
})
