package protocol

import (
	"io"
	"os/exec"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// nopCloser is a stdin that accepts everything.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

var _ = ginkgo.Describe("The stderr accounting of a process", func() {
	ginkgo.It("keeps the tail of what was written since a mark, and says how much it omits", func() {
		t := newTail(8)
		_, _ = t.Write([]byte("0123456789"))
		mark := t.total()
		gomega.Expect(mark).To(gomega.Equal(int64(10)))
		gomega.Expect(t.since(mark)).To(gomega.BeEmpty())
		_, _ = t.Write([]byte("abc"))
		gomega.Expect(t.since(mark)).To(gomega.Equal("abc"))
		_, _ = t.Write([]byte("defghij"))
		gomega.Expect(t.total()).To(gomega.Equal(int64(20)))
		gomega.Expect(t.since(mark)).To(gomega.Equal("[… 2 bytes of stderr omitted …]\ncdefghij"))
		_, _ = t.Write([]byte(strings.Repeat("z", 20)))
		gomega.Expect(t.since(0)).To(gomega.Equal("[… 32 bytes of stderr omitted …]\nzzzzzzzz"))
	})

	ginkgo.It("counts a flood per exchange, from the mark, and only above the limit", func() {
		newProc := func(limit int64) *proc {
			return &proc{cmd: &exec.Cmd{}, stdin: nopCloser{io.Discard}, quit: make(chan struct{}), stderr: newTail(64), maxStderr: limit}
		}
		pr := newProc(100)
		_, _ = pr.stderr.Write(make([]byte, 250)) // earlier exchanges
		pr.mark = pr.stderr.total()
		_, _ = pr.stderr.Write(make([]byte, 100))
		gomega.Expect(pr.flooded()).To(gomega.BeNil(), "exactly the limit is not a flood")
		_, _ = pr.stderr.Write(make([]byte, 1))
		f := pr.flooded()
		gomega.Expect(f).NotTo(gomega.BeNil())
		gomega.Expect(f.Outcome).To(gomega.Equal(OutcomeError))
		gomega.Expect(f.Message).To(gomega.Equal("stderr flood: 101 bytes of stderr in one exchange, over the limit of 100"))
		gomega.Expect(pr.quit).To(gomega.BeClosed(), "a flooding process is stopped")

		pr = newProc(-1)
		_, _ = pr.stderr.Write(make([]byte, 1<<20))
		gomega.Expect(pr.flooded()).To(gomega.BeNil(), "no limit")
	})
})
