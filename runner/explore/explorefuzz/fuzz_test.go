package explorefuzz_test

import (
	"context"
	"os"
	"slices"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/explore/explorefuzz"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/runner/vector"
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
	if err == nil && r.Output != nil && req.Stage == vector.StagePlacing && req.Case.Placer == "u-shaped" && len(r.Output.Ordered) >= 3 {
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
		Expect(d.File).To(HaveSuffix("/optional/placing/explore-u-shaped-order-fuzz.toml"))
		// The written vector is an input too: it shows the bug again.
		Expect(explorefuzz.Check(sess, data)).To(ContainSubstring("divergence placing / u-shaped / order"))
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
