package protocol

import (
	"encoding/json"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/vector"
)

// The run message is written and read by wire.go, not by encoding/json;
// the bytes and the values must be encoding/json's all the same.
var _ = ginkgo.Describe("a run message on the wire", func() {
	suite, err := vector.LoadSuite(nil)

	ginkgo.It("is written as encoding/json writes it, and read back as it reads it, for every embedded vector", func() {
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(suite.Cases).NotTo(gomega.BeEmpty())
		for i, c := range suite.Cases {
			m := RunMessage{Type: TypeRun, Request: NewRequest(i+1, c)}
			want, werr := json.Marshal(m)
			got, gerr := encodeLine(m)
			if werr != nil {
				gomega.Expect(gerr).To(gomega.MatchError(werr.Error()), c.ID)
				continue
			}
			gomega.Expect(gerr).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(string(got)).To(gomega.Equal(string(want)), c.ID)

			var slow RunMessage
			gomega.Expect(json.Unmarshal(got, &slow)).To(gomega.Succeed(), c.ID)
			fast, ok := readRun(got)
			if !ok { // escapes in the case: encoding/json reads it
				continue
			}
			again, err := json.Marshal(fast)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.ID)
			gomega.Expect(string(again)).To(gomega.Equal(string(got)), c.ID)
			gomega.Expect(fast.Seq).To(gomega.Equal(slow.Seq))
			gomega.Expect(fast.ID).To(gomega.Equal(slow.ID))
		}
	})

	ginkgo.It("leaves to encoding/json what the fast reader does not accept", func() {
		for _, line := range []string{
			`{"type":"hello","protocol":["cupel-conform/1"]}`,
			`{"type":"run","seq":1,"id":"x","stage":"scoring","case":{"items":[]},"extra":1}`,
			`{"Type":"run","seq":1,"case":{"items":[]}}`,
			`{"type":"run","seq":1.5,"case":{"items":[]}}`,
			`{"type":"run","seq":1,"case":{"items":[}}`,
			`{"type":"run","seq":1,"case":{"items":[]}} {}`,
		} {
			_, ok := readRun([]byte(line))
			gomega.Expect(ok).To(gomega.BeFalse(), line)
		}
		m, ok := readRun([]byte(` {"type":"run","seq":7,"id":"a/b","stage":"placing","case":{"placer":"chronological","items":[]}} `))
		gomega.Expect(ok).To(gomega.BeTrue())
		gomega.Expect(m.Seq).To(gomega.Equal(7))
		gomega.Expect(m.Case.Placer).To(gomega.Equal("chronological"))
		gomega.Expect(m.Case.Items).To(gomega.Equal([]vector.Item{}))
	})
})
