package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// cupelPkg is the cupel package, loaded once for every spec that reads it:
// Load type-checks it and, from source, the packages it imports.
var cupelPkg *Package

func loadCupel() *Package {
	GinkgoHelper()
	if cupelPkg == nil {
		var err error
		cupelPkg, err = Load("../../cupel")
		Expect(err).NotTo(HaveOccurred())
	}
	return cupelPkg
}

// The samples are smaller under the race detector (testtool.Iterations):
// each mutant drawn type-checks the whole package, single-threaded code that
// the race detector makes several times slower and has no race to find in.

var _ = Describe("the mutator", func() {
	var p *Package
	BeforeEach(func() { p = loadCupel() })

	It("reads the non-test files of the package only", func() {
		Expect(p.Files).NotTo(BeEmpty())
		for _, f := range p.Files {
			Expect(f).To(HaveSuffix(".go"))
			Expect(f).NotTo(HaveSuffix("_test.go"))
		}
	})

	It("describes each site by the bytes it replaces, under a unique name", func() {
		sites := p.Sites()
		names := map[string]bool{}
		for _, m := range sites {
			Expect(names[m.String()]).To(BeFalse(), "two sites named %s", m)
			names[m.String()] = true
		}
		// The engine alone (the built-in components have packages of their
		// own) has about 970 sites: the count proves the whole package was read.
		Expect(len(sites)).To(BeNumerically(">", 900))
		for _, m := range sites {
			src := p.Src[m.File]
			Expect(string(src[m.Off:m.Off+len(m.Old)])).To(Equal(m.Old), m.String())
			Expect(m.New).NotTo(Equal(m.Old), m.String())
			Expect(bytes.Count(src[:m.Off], []byte("\n"))+1).To(Equal(m.Line), m.String())
			out := m.Apply(src)
			Expect(out[:m.Off]).To(Equal(src[:m.Off]))
			Expect(out[m.Off+len(m.New):]).To(Equal(src[m.Off+len(m.Old):]))
		}
	})

	It("draws the same sample for the same seed, and another for another seed", func() {
		n := testtool.Iterations(25, 4)
		a, na := p.Sample(7, n)
		b, nb := p.Sample(7, n)
		c, _ := p.Sample(8, n)
		Expect(a).To(HaveLen(n))
		Expect(a).To(Equal(b))
		Expect(na).To(Equal(nb))
		Expect(c).NotTo(Equal(a))
		seen := map[string]bool{}
		for _, m := range a {
			Expect(seen[m.String()]).To(BeFalse(), "drawn twice: %s", m)
			seen[m.String()] = true
		}
	})

	It("draws only mutants that type-check", func() {
		s, _ := p.Sample(3, testtool.Iterations(40, 5))
		Expect(s).NotTo(BeEmpty())
		for _, m := range s {
			Expect(p.Compiles(m)).To(BeTrue(), m.String())
		}
	})

	It("builds the mutants it draws with go build -overlay", func() {
		if testing.Short() {
			Skip("builds the package")
		}
		// Each build compiles the package: one is enough under -race,
		// which does not apply to the go build it starts.
		s, _ := p.Sample(11, testtool.Iterations(3, 1))
		Expect(s).NotTo(BeEmpty())
		tmp := GinkgoT().TempDir()
		abs, err := filepath.Abs("../../cupel")
		Expect(err).NotTo(HaveOccurred())
		for i, m := range s {
			mf := filepath.Join(tmp, "m.go")
			Expect(os.WriteFile(mf, m.Apply(p.Src[m.File]), 0o644)).To(Succeed())
			ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(abs, m.File): mf}})
			of := filepath.Join(tmp, "overlay.json")
			Expect(os.WriteFile(of, ov, 0o644)).To(Succeed())
			cmd := exec.Command("go", "build", "-overlay", of, "-o", os.DevNull, "../../cupel")
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "mutant %d %s: %s", i, m, out)
		}
	})

	It("skips candidates that do not compile", func() {
		dir := GinkgoT().TempDir()
		src := "package x\n\nfunc f(a, b string) string { return a + b }\n\nfunc g(a, b int) int { return a + b }\n"
		Expect(os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644)).To(Succeed())
		q, err := Load(dir)
		Expect(err).NotTo(HaveOccurred())
		sites := q.Sites()
		Expect(sites).To(HaveLen(2)) // the two + operators
		Expect(q.Compiles(sites[0])).To(BeFalse(), "string a - b")
		Expect(q.Compiles(sites[1])).To(BeTrue(), "int a - b")
		s, n := q.Sample(1, 5)
		Expect(n).To(Equal(2))
		Expect(s).To(Equal([]Mutant{sites[1]}))
		Expect(s[0].String()).To(Equal("x.go:5:33: + -> -"))
	})

	It("judges a switch case's expressions reachable by the switch's line", func() {
		dir := GinkgoT().TempDir()
		src := "package x\n\nfunc f(a int) int {\n\tswitch {\n\tcase a < 0:\n\t\treturn a + 1\n\t}\n\treturn 0\n}\n"
		Expect(os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644)).To(Succeed())
		q, err := Load(dir)
		Expect(err).NotTo(HaveOccurred())
		got := map[string]int{}
		for _, m := range q.Sites() {
			got[m.String()] = m.ReachLine
		}
		Expect(got).To(Equal(map[string]int{
			"x.go:5:9: < -> <=": 4, "x.go:5:9: < -> >=": 4, "x.go:5:11: 0 -> 1": 4, // case expression: the switch
			"x.go:6:12: + -> -": 6, "x.go:6:14: 1 -> 2": 6, // case body: its own line
			"x.go:8:9: 0 -> 1": 8,
		}))
	})

	It("mutates operators, literals, negations and booleans", func() {
		dir := GinkgoT().TempDir()
		src := "package x\n\nfunc f(a int, ok bool) bool {\n\ta++\n\ta += 2\n\treturn !ok && a < 0 || false\n}\n"
		Expect(os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644)).To(Succeed())
		q, err := Load(dir)
		Expect(err).NotTo(HaveOccurred())
		var got []string
		for _, m := range q.Sites() {
			got = append(got, m.String())
		}
		Expect(got).To(ConsistOf(
			"x.go:4:3: ++ -> --", "x.go:5:4: += -> -=", "x.go:5:7: 2 -> 3",
			"x.go:6:22: || -> &&", "x.go:6:13: && -> ||", "x.go:6:9: ! -> ",
			"x.go:6:18: < -> <=", "x.go:6:18: < -> >=", "x.go:6:20: 0 -> 1", "x.go:6:25: false -> true",
		))
	})
})

var _ = Describe("a list of mutants", func() {
	It("names mutants as the report prints them", func() {
		p := loadCupel()
		s, _ := p.Sample(5, 4)
		f := filepath.Join(GinkgoT().TempDir(), "list")
		text := "# a comment line\n[1/4] " + s[0].String() + "    reachable=true  vectors=survived tests=killed\n" +
			"  " + s[1].String() + " reachable=false survives both\n\n" + s[2].String() + "\n" + s[3].String()
		Expect(os.WriteFile(f, []byte(text), 0o644)).To(Succeed())
		got, err := p.Named(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(s))
		var drop Mutant
		for _, m := range p.Sites() {
			if m.New == "" {
				drop = m
				break
			}
		}
		Expect(os.WriteFile(f, []byte(strings.TrimSpace(drop.String())+"\n"), 0o644)).To(Succeed())
		got, err = p.Named(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]Mutant{drop}))
		Expect(os.WriteFile(f, []byte("nothing.go:1:1: < -> >\n"), 0o644)).To(Succeed())
		_, err = p.Named(f)
		Expect(err).To(MatchError(ContainSubstring("no mutant")))
	})
})

var _ = Describe("the coverage profile", func() {
	It("keeps the executed line ranges of the package's files", func() {
		prof := strings.Join([]string{
			"mode: set",
			"example.com/m/cupel/a.go:10.2,12.3 2 1",
			"example.com/m/cupel/a.go:20.2,21.3 1 0",
			"example.com/m/cmd/x/a.go:30.2,31.3 1 1",
			"example.com/m/cupel/b.go:5.1,5.9 1 3",
		}, "\n")
		c, err := parseCoverProfile(strings.NewReader(prof), "example.com/m/cupel")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.covered("a.go", 11)).To(BeTrue())
		Expect(c.covered("a.go", 20)).To(BeFalse()) // count 0
		Expect(c.covered("a.go", 30)).To(BeFalse()) // another package's a.go
		Expect(c.covered("b.go", 5)).To(BeTrue())
		Expect(c.covered("b.go", 6)).To(BeFalse())
	})

	It("rejects a malformed line", func() {
		_, err := parseCoverProfile(strings.NewReader("mode: set\nnonsense\n"), "p")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("the report", func() {
	It("with -vectors=false, counts the tests alone and lists only what they leave alive", func() {
		a := Mutant{File: "a.go", Line: 1, Col: 2, Old: "<", New: "<="}
		b := Mutant{File: "b.go", Line: 3, Col: 4, Old: "+", New: "-"}
		var buf strings.Builder
		report(&buf, "2 mutants", []result{
			{Mutant: a, TestsRun: true, TestsKill: true},
			{Mutant: b, TestsRun: true},
		})
		out := buf.String()
		Expect(out).To(ContainSubstring("vectors:              not run (-vectors=false)\n"))
		Expect(out).To(ContainSubstring("go test:              1/2 killed (50.0%)"))
		Expect(out).NotTo(ContainSubstring("vectors alone"))
		Expect(out).NotTo(ContainSubstring(a.String()))
		Expect(out).To(MatchRegexp(`b\.go:3:4: \+ -> -\s+reachable=false survives tests\n`))
	})

	It("with the vectors, lists what survives either judge", func() {
		a := Mutant{File: "a.go", Line: 1, Col: 2, Old: "<", New: "<="}
		b := Mutant{File: "b.go", Line: 3, Col: 4, Old: "+", New: "-"}
		var buf strings.Builder
		report(&buf, "2 mutants", []result{
			{Mutant: a, VectorsRun: true, VectorsKill: true, TestsRun: true},
			{Mutant: b, VectorsRun: true, TestsRun: true},
		})
		out := buf.String()
		Expect(out).To(ContainSubstring("vectors alone:        1/2 killed (50.0%)"))
		Expect(out).To(MatchRegexp(`a\.go:1:2: < -> <=\s+reachable=false survives tests\n`))
		Expect(out).To(MatchRegexp(`b\.go:3:4: \+ -> -\s+reachable=false survives both\n`))
	})
})
