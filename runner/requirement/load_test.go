package requirement_test

import (
	"errors"
	"strings"
	"testing/fstest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/runner/requirement"
)

// greedy is a valid chapter file: three requirements, out of order, one of
// each test method.
const greedy = `chapter = 26
title = "GreedySlice"

[[requirement]]
id = "R26.10"
section = "Conformance Notes"
kind = "MAY"
statement = "A permission."
test = "none"
why = "Nothing to check."

[[requirement]]
id = "R26.2"
section = "Algorithm"
kind = "MUST NOT"
statement = "No item is selected twice."
test = "api"
tests = ["cupel/greedy_test.go"]

[[requirement]]
id = "R26.1"
section = ""
kind = "step"
statement = "Items go by descending score per token."
test = "protocol"
`

const intro = `chapter = 0
title = "Introduction"

[[requirement]]
id = "R0.1"
section = "Conformance"
kind = "MUST"
statement = "Follow the spec."
test = "protocol"
`

const rulings = `[[requirement]]
id = "RL26"
ruling = 26
section = "26. Truncate walks the merged list"
chapters = [4, 12]
kind = "ruling"
statement = "Truncate walks the merged list."
test = "protocol"

[[requirement]]
id = "RL3"
ruling = 3
section = "3. Scores: what a scorer returns"
chapters = [13]
kind = "ruling"
statement = "Scores are clamped."
test = "protocol"
`

func load(files map[string]string) (*requirement.Catalogue, error) {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return requirement.Load(fsys)
}

// one is a chapter-26 file holding the entry body (a [[requirement]]'s
// keys).
func one(body string) string {
	return "chapter = 26\ntitle = \"GreedySlice\"\n\n[[requirement]]\n" + body
}

// entry is a valid entry with key=value lines replaced or added: "" as a
// value drops the key.
func entry(id string, set ...string) string {
	keys := []string{"id", "section", "kind", "statement", "test"}
	vals := map[string]string{"id": `"` + id + `"`, "section": `"Algorithm"`, "kind": `"MUST"`, "statement": `"Do it."`, "test": `"protocol"`}
	for i := 0; i < len(set); i += 2 {
		if _, ok := vals[set[i]]; !ok {
			keys = append(keys, set[i])
		}
		vals[set[i]] = set[i+1]
	}
	var b strings.Builder
	for _, k := range keys {
		if vals[k] != "" {
			b.WriteString(k + " = " + vals[k] + "\n")
		}
	}
	return b.String()
}

func ruling(set ...string) string {
	return "[[requirement]]\n" + entry("RL5", append([]string{"ruling", "5", "chapters", "[6]", "kind", `"ruling"`, "section", `"5. A ruling"`}, set...)...)
}

// loadErrors loads files and returns the *Errors the joined error holds.
func loadErrors(files map[string]string) []*requirement.Error {
	GinkgoHelper()
	cat, err := load(files)
	Expect(err).To(HaveOccurred())
	Expect(cat).To(BeNil())
	var first *requirement.Error
	Expect(errors.As(err, &first)).To(BeTrue(), "errors.As finds a *requirement.Error in %v", err)
	var out []*requirement.Error
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var re *requirement.Error
		Expect(errors.As(e, &re)).To(BeTrue(), "%v", e)
		out = append(out, re)
	}
	return out
}

var _ = Describe("Load", func() {
	It("orders chapters by number, requirements by their number, the rulings last by number", func() {
		cat, err := load(map[string]string{"26-greedyslice.toml": greedy, "rulings.toml": rulings, "00-introduction.toml": intro, "README.md": "not a catalogue file"})
		Expect(err).NotTo(HaveOccurred())
		var ids []string
		for _, r := range cat.All() {
			ids = append(ids, r.ID)
		}
		Expect(ids).To(Equal([]string{"R0.1", "R26.1", "R26.2", "R26.10", "RL3", "RL26"}))
		Expect(cat.Len()).To(Equal(6))
	})

	It("reads every field, and Lookup finds by id", func() {
		cat, err := load(map[string]string{"26-greedyslice.toml": greedy, "rulings.toml": rulings})
		Expect(err).NotTo(HaveOccurred())
		r, ok := cat.Lookup("R26.2")
		Expect(ok).To(BeTrue())
		Expect(r).To(Equal(requirement.Requirement{ID: "R26.2", Chapter: 26, Title: "GreedySlice", Section: "Algorithm",
			Kind: requirement.MustNot, Statement: "No item is selected twice.", Test: requirement.API,
			Tests: []string{"cupel/greedy_test.go"}, File: "26-greedyslice.toml"}))
		r, ok = cat.Lookup("R26.10")
		Expect(ok).To(BeTrue())
		Expect(r.Why).To(Equal("Nothing to check."))
		Expect(r.Test).To(Equal(requirement.None))
		r, ok = cat.Lookup("RL26")
		Expect(ok).To(BeTrue())
		Expect(r.Ruling).To(Equal(26))
		Expect(r.Chapters).To(Equal([]int{4, 12}))
		Expect(r.Kind).To(Equal(requirement.Ruling))
		Expect(r.Chapter).To(Equal(-1))
		_, ok = cat.Lookup("R26.3")
		Expect(ok).To(BeFalse())
		_, ok = cat.Lookup("")
		Expect(ok).To(BeFalse())
	})

	It("gives the caller a copy of the requirements", func() {
		cat, err := load(map[string]string{"26-greedyslice.toml": greedy})
		Expect(err).NotTo(HaveOccurred())
		all := cat.All()
		all[0].ID = "changed"
		Expect(cat.All()[0].ID).To(Equal("R26.1"))
	})

	It("loads an empty catalogue", func() {
		cat, err := load(map[string]string{"README.md": "# nothing"})
		Expect(err).NotTo(HaveOccurred())
		Expect(cat.Len()).To(BeZero())
	})

	It("loads the embedded catalogue", func() {
		cat, err := requirement.Embedded()
		Expect(err).NotTo(HaveOccurred())
		for _, r := range cat.All() {
			Expect(r.File).NotTo(BeEmpty(), r.ID)
		}
	})

	DescribeTable("names the file, the entry and what is wrong",
		func(name, data, file, entry, reason string) {
			errs := loadErrors(map[string]string{name: data, "00-introduction.toml": intro})
			Expect(errs).To(HaveLen(1), "%v", errs)
			Expect(errs[0].File).To(Equal(file))
			Expect(errs[0].Entry).To(Equal(entry))
			Expect(errs[0].Reason).To(ContainSubstring(reason))
			Expect(errs[0].Error()).To(HavePrefix("requirements: " + file + ": "))
			if entry != "" {
				Expect(errs[0].Error()).To(ContainSubstring(": " + entry + ": "))
			}
		},
		Entry("invalid TOML", "26-greedyslice.toml", "chapter = \n", "26-greedyslice.toml", "", "expected"),
		Entry("an unknown key", "26-greedyslice.toml", one(entry("R26.1", "statment", `"x"`)), "26-greedyslice.toml", "", "unknown keys: requirement.statment"),
		Entry("a chapter in the rulings file", "rulings.toml", "chapter = 3\n"+ruling(), "rulings.toml", "", "the rulings file has no chapter or title"),
		Entry("a file name of no chapter", "greedy.toml", one(entry("R26.1")), "greedy.toml", "", `neither "NN-name.toml"`),
		Entry("a chapter past 45", "46-changelog.toml", "chapter = 46\ntitle = \"Changelog\"\n", "46-changelog.toml", "", "chapter 46: spec 1.3's normative chapters are 00 to 45"),
		Entry("a chapter that is not the file's", "27-knapsackslice.toml", one(entry("R27.1")), "27-knapsackslice.toml", "", "chapter = 26 does not match the file name's 27"),
		Entry("no chapter", "26-greedyslice.toml", "title = \"GreedySlice\"\n", "26-greedyslice.toml", "", "chapter = (missing) does not match"),
		Entry("no title", "26-greedyslice.toml", "chapter = 26\n", "26-greedyslice.toml", "", "missing title"),
		Entry("a ruling's id", "rulings.toml", ruling("id", `"R5"`), "rulings.toml", "R5", `a ruling's id is "RL<n>"`),
		Entry("a ruling's number", "rulings.toml", ruling("ruling", "6"), "rulings.toml", "RL5", "ruling = 6 does not match the id"),
		Entry("a ruling's kind", "rulings.toml", ruling("kind", `"MUST"`), "rulings.toml", "RL5", `kind "MUST": a ruling's kind is "ruling"`),
		Entry("a ruling without chapters", "rulings.toml", ruling("chapters", ""), "rulings.toml", "RL5", "missing chapters"),
		Entry("a ruling's chapter out of range", "rulings.toml", ruling("chapters", "[6, 46]"), "rulings.toml", "RL5", "chapters: 46 is not a chapter"),
		Entry("no id", "26-greedyslice.toml", one(entry("")), "26-greedyslice.toml", "requirement #1", `a chapter's requirement id is "R<chapter>.<n>"`),
		Entry("a malformed id", "26-greedyslice.toml", one(entry("R26.0")), "26-greedyslice.toml", "R26.0", `id "R26.0"`),
		Entry("an id of another chapter", "26-greedyslice.toml", one(entry("R27.1")), "26-greedyslice.toml", "R27.1", `id "R27.1" is not of chapter 26`),
		Entry("a ruling number in a chapter", "26-greedyslice.toml", one(entry("R26.1", "ruling", "3")), "26-greedyslice.toml", "R26.1", "ruling and chapters belong in rulings.toml"),
		Entry("an unknown kind", "26-greedyslice.toml", one(entry("R26.1", "kind", `"must"`)), "26-greedyslice.toml", "R26.1", `kind "must" is not one of "MUST", "MUST NOT"`),
		Entry("kind ruling in a chapter", "26-greedyslice.toml", one(entry("R26.1", "kind", `"ruling"`)), "26-greedyslice.toml", "R26.1", `kind "ruling" is not one of`),
		Entry("no section", "26-greedyslice.toml", one(entry("R26.1", "section", "")), "26-greedyslice.toml", "R26.1", "missing section"),
		Entry("no statement", "26-greedyslice.toml", one(entry("R26.1", "statement", `"  "`)), "26-greedyslice.toml", "R26.1", "missing statement"),
		Entry("api without tests", "26-greedyslice.toml", one(entry("R26.1", "test", `"api"`)), "26-greedyslice.toml", "R26.1", `test = "api" names no tests`),
		Entry("none without why", "26-greedyslice.toml", one(entry("R26.1", "test", `"none"`)), "26-greedyslice.toml", "R26.1", `test = "none" says no why`),
		Entry("an unknown test method", "26-greedyslice.toml", one(entry("R26.1", "test", `"vector"`)), "26-greedyslice.toml", "R26.1", `test "vector" is not one of protocol, api, none`),
		Entry("tests outside api", "26-greedyslice.toml", one(entry("R26.1", "tests", `["cupel/x_test.go"]`)), "26-greedyslice.toml", "R26.1", `tests belong to test = "api"`),
		Entry("why outside none", "26-greedyslice.toml", one(entry("R26.1", "why", `"because"`)), "26-greedyslice.toml", "R26.1", `why belongs to test = "none"`),
		Entry("a test outside the repository", "26-greedyslice.toml", one(entry("R26.1", "test", `"api"`, "tests", `["../x_test.go"]`)), "26-greedyslice.toml", "R26.1", `tests: "../x_test.go" is not a repository-relative _test.go file`),
		Entry("a test that is no test file", "26-greedyslice.toml", one(entry("R26.1", "test", `"api"`, "tests", `["cupel/greedy.go"]`)), "26-greedyslice.toml", "R26.1", `"cupel/greedy.go" is not a repository-relative _test.go file`),
	)

	It("reports an id used twice, in the file that uses it again", func() {
		errs := loadErrors(map[string]string{"26-greedyslice.toml": greedy, "26-greedy-again.toml": one(entry("R26.2"))})
		Expect(errs).To(HaveLen(1))
		Expect(errs[0].File).To(Equal("26-greedyslice.toml"))
		Expect(errs[0].Entry).To(Equal("R26.2"))
		Expect(errs[0].Reason).To(Equal("id already used in 26-greedy-again.toml"))
	})

	It("reports every problem of every file at once, and no catalogue", func() {
		errs := loadErrors(map[string]string{
			"26-greedyslice.toml": one(entry("R26.1", "kind", `"must"`, "statement", "")) + "\n[[requirement]]\n" + entry("R26.2", "test", `"none"`),
			"rulings.toml":        ruling("ruling", "6"),
		})
		var got []string
		for _, e := range errs {
			got = append(got, e.File+" "+e.Entry)
		}
		Expect(got).To(Equal([]string{"26-greedyslice.toml R26.1", "26-greedyslice.toml R26.1", "26-greedyslice.toml R26.2", "rulings.toml RL5"}))
	})
})

var _ = Describe("Requirement", func() {
	It("says where a chapter's requirement comes from, and links the spec", func() {
		cat, err := load(map[string]string{"26-greedyslice.toml": greedy, "rulings.toml": rulings})
		Expect(err).NotTo(HaveOccurred())
		r, _ := cat.Lookup("R26.2")
		Expect(r.Source()).To(Equal("spec chapter 26 (GreedySlice), Algorithm"))
		Expect(r.URL()).To(Equal(requirement.SpecBase))
		r, _ = cat.Lookup("R26.1")
		Expect(r.Source()).To(Equal("spec chapter 26 (GreedySlice)"), "no section before the first heading")
	})

	It("links a ruling to its heading in docs/rulings.md", func() {
		cat, err := load(map[string]string{"rulings.toml": rulings})
		Expect(err).NotTo(HaveOccurred())
		r, _ := cat.Lookup("RL26")
		Expect(r.Source()).To(Equal("ruling 26"))
		Expect(r.URL()).To(Equal(requirement.RulingsURL + "#26-truncate-walks-the-merged-list"))
		r, _ = cat.Lookup("RL3")
		Expect(r.URL()).To(HaveSuffix("#3-scores-what-a-scorer-returns"))
	})
})
