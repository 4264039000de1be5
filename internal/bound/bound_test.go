package bound_test

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/bound"
)

var _ = ginkgo.Describe("Text", func() {
	ginkgo.It("keeps a text within the cap as it is", func() {
		for _, s := range []string{"", "unsupported: no scorer", strings.Repeat("x", bound.MaxText)} {
			gomega.Expect(bound.Text(s)).To(gomega.Equal(s))
		}
	})
	ginkgo.It("cuts a longer text to the cap, marker included, and says how many bytes it cut", func() {
		for _, n := range []int{bound.MaxText + 1, bound.MaxText + 100, 16 << 20} {
			s := strings.Repeat("r", n)
			got := bound.Text(s)
			gomega.Expect(len(got)).To(gomega.BeNumerically("<=", bound.MaxText), "n=%d", n)
			m := regexp.MustCompile(`^(r*) … \[(\d+) bytes cut\]$`).FindStringSubmatch(got)
			gomega.Expect(m).NotTo(gomega.BeNil(), "n=%d", n)
			gomega.Expect(m[2]).To(gomega.Equal(strconv.Itoa(n-len(m[1]))), "n=%d", n)
			gomega.Expect(bound.Text(got)).To(gomega.Equal(got), "idempotent")
		}
	})
	ginkgo.It("counts both cuts in one marker when a cut text is led by more words and cut again", func() {
		s := strings.Repeat("m", 16<<20)
		got := bound.Text("implementation error: " + bound.Text(s))
		m := regexp.MustCompile(`^implementation error: (m*) … \[(\d+) bytes cut\]$`).FindStringSubmatch(got)
		gomega.Expect(m).NotTo(gomega.BeNil())
		gomega.Expect(m[2]).To(gomega.Equal(strconv.Itoa(len(s) - len(m[1]))))
		gomega.Expect(len(got)).To(gomega.BeNumerically("<=", bound.MaxText))
	})
	ginkgo.It("cuts at a character boundary", func() {
		s := strings.Repeat("é", bound.MaxText) // two bytes each
		got := bound.Text(s)
		gomega.Expect(utf8.ValidString(got)).To(gomega.BeTrue())
		gomega.Expect(len(got)).To(gomega.BeNumerically("<=", bound.MaxText))
	})
})

var _ = ginkgo.Describe("Line", func() {
	ginkgo.It("keeps a line of at most MaxLine bytes as sent", func() {
		head := `{"type":"result","seq":1,"id":"a","status":"ok"}`
		line := []byte(head + strings.Repeat(" ", bound.MaxLine-len(head)))
		gomega.Expect(len(line)).To(gomega.Equal(bound.MaxLine))
		gomega.Expect(bound.Line(line)).To(gomega.Equal(string(line)))
	})
	ginkgo.It("cuts a longer line to MaxLine bytes at a character boundary, marker included, and says how many bytes it cut", func() {
		for _, n := range []int{bound.MaxLine + 1, 16 << 20} {
			line := []byte(strings.Repeat("é", n/2+1))
			got := bound.Line(line)
			gomega.Expect(len(got)).To(gomega.BeNumerically("<=", bound.MaxLine), "n=%d", n)
			gomega.Expect(utf8.ValidString(got)).To(gomega.BeTrue())
			m := regexp.MustCompile(`^((?:é)*) … \[(\d+) bytes cut\]$`).FindStringSubmatch(got)
			gomega.Expect(m).NotTo(gomega.BeNil(), "n=%d", n)
			gomega.Expect(m[2]).To(gomega.Equal(strconv.Itoa(len(line)-len(m[1]))), "n=%d", n)
		}
	})
})

var _ = ginkgo.Describe("Name", func() {
	ginkgo.It("keeps a name of at most MaxName characters as it is", func() {
		for _, s := range []string{"", "go-cupel", strings.Repeat("é", bound.MaxName)} {
			gomega.Expect(bound.Name(s)).To(gomega.Equal(s))
		}
	})
	ginkgo.It("cuts a longer name to MaxName characters, marker included, and says how many it cut", func() {
		s := strings.Repeat("名", 16<<20/3)
		got := bound.Name(s)
		gomega.Expect(utf8.RuneCountInString(got)).To(gomega.Equal(bound.MaxName))
		m := regexp.MustCompile(`^(名*) … \[(\d+) characters cut\]$`).FindStringSubmatch(got)
		gomega.Expect(m).NotTo(gomega.BeNil())
		gomega.Expect(m[2]).To(gomega.Equal(strconv.Itoa(utf8.RuneCountInString(s) - utf8.RuneCountInString(m[1]))))
		gomega.Expect(bound.Name(got)).To(gomega.Equal(got), "idempotent")
	})
})

var _ = ginkgo.Describe("Lines", func() {
	ginkgo.It("keeps lines within the cap as they are", func() {
		lines := []string{"a", strings.Repeat("b", 1000), ""}
		gomega.Expect(bound.Lines(lines)).To(gomega.Equal(lines))
	})
	ginkgo.It("keeps the lines that fit, cuts the next and says how many lines it left out", func() {
		var lines []string
		for range 61 {
			lines = append(lines, strings.Repeat("d", 16<<10))
		}
		got := bound.Lines(lines)
		size := 0
		for _, l := range got {
			size += len(l) + 1
		}
		gomega.Expect(size).To(gomega.BeNumerically("<=", bound.MaxText))
		gomega.Expect(got[0]).To(gomega.Equal(lines[0]))
		gomega.Expect(got[len(got)-1]).To(gomega.MatchRegexp(`^… \[\d+ more lines \(\d+ bytes\) cut\]$`))
		gomega.Expect(got[len(got)-2]).To(gomega.ContainSubstring("bytes cut]"))
		gomega.Expect(bound.Lines(got)).To(gomega.Equal(got), "idempotent")
	})
	ginkgo.It("cuts one huge line to the cap", func() {
		got := bound.Lines([]string{strings.Repeat("x", 16<<20)})
		gomega.Expect(got).To(gomega.HaveLen(1))
		gomega.Expect(len(got[0]) + 1).To(gomega.BeNumerically("<=", bound.MaxText))
	})
})
