package requirement

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/cupel-go/go-cupel/vectors"
)

// Error is a catalogue file that cannot be read, or an entry of it that
// breaks the format: it names the file, the entry (its id, or its position
// when the id is the problem) and what is wrong.
type Error struct {
	// File is the catalogue file, relative to the catalogue's root.
	File string
	// Entry is the requirement's id, or "requirement #N" (1-based) when
	// the entry has no usable id; empty for a file-level problem.
	Entry string
	// Reason says what is wrong.
	Reason string
}

func (e *Error) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("requirements: %s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("requirements: %s: %s: %s", e.File, e.Entry, e.Reason)
}

// Catalogue is every requirement, ordered by chapter, then number; the
// rulings come last, by number.
type Catalogue struct {
	reqs []Requirement
	byID map[string]int
}

// All returns the requirements in catalogue order. The slice is the
// caller's.
func (c *Catalogue) All() []Requirement { return slices.Clone(c.reqs) }

// Len is the number of requirements.
func (c *Catalogue) Len() int { return len(c.reqs) }

// Lookup returns the requirement with the given id.
func (c *Catalogue) Lookup(id string) (Requirement, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Requirement{}, false
	}
	return c.reqs[i], true
}

// Embedded loads the catalogue embedded in package vectors, once: every
// call returns the same catalogue (which no method changes).
func Embedded() (*Catalogue, error) { return embedded() }

var embedded = sync.OnceValues(func() (*Catalogue, error) { return Load(vectors.RequirementsFS) })

// RulingsFile is the catalogue file of the rulings.
const RulingsFile = "rulings.toml"

// file is a catalogue file as TOML.
type file struct {
	Chapter     *int    `toml:"chapter"`
	Title       string  `toml:"title"`
	Requirement []entry `toml:"requirement"`
}

type entry struct {
	ID        string   `toml:"id"`
	Section   *string  `toml:"section"`
	Kind      string   `toml:"kind"`
	Statement string   `toml:"statement"`
	Test      string   `toml:"test"`
	Tests     []string `toml:"tests"`
	Why       string   `toml:"why"`
	Ruling    int      `toml:"ruling"`
	Chapters  []int    `toml:"chapters"`
}

var (
	chapterID = regexp.MustCompile(`^R([0-9]|[1-9][0-9])\.([1-9][0-9]*)$`)
	rulingID  = regexp.MustCompile(`^RL([1-9][0-9]*)$`)
	// chapterFile is a chapter's file name: the spec file's, with .toml.
	chapterFile = regexp.MustCompile(`^([0-9]{2})-[a-z0-9-]+\.toml$`)
)

// MaxChapter is the last chapter of spec 1.3 that can hold requirements
// (46 is the changelog).
const MaxChapter = 45

// Load reads every *.toml file at the root of fsys as a catalogue file:
// "NN-name.toml" holds the requirements of spec chapter NN, "rulings.toml"
// the rulings. Every problem found is returned, joined (errors.Join of
// *Error), with no catalogue.
func Load(fsys fs.FS) (*Catalogue, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("requirements: %w", err)
	}
	sort.Strings(names)
	c := &Catalogue{byID: map[string]int{}}
	var errs []error
	where := map[string]string{} // id -> file, for duplicates
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("requirements: %w", err)
		}
		reqs, ferrs := parseFile(name, data)
		errs = append(errs, ferrs...)
		for _, r := range reqs {
			if f, dup := where[r.ID]; dup {
				errs = append(errs, &Error{File: name, Entry: r.ID, Reason: "id already used in " + f})
				continue
			}
			where[r.ID] = name
			c.reqs = append(c.reqs, r)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// By chapter and number, then the rulings by number; each key is
	// parsed from its id once, not in every comparison.
	keys := make(map[string][3]int, len(c.reqs))
	for _, r := range c.reqs {
		keys[r.ID] = sortKey(r)
	}
	slices.SortStableFunc(c.reqs, func(a, b Requirement) int {
		ka, kb := keys[a.ID], keys[b.ID]
		return slices.Compare(ka[:], kb[:])
	})
	for i, r := range c.reqs {
		c.byID[r.ID] = i
	}
	return c, nil
}

// sortKey orders a chapter's requirements by chapter and number, and
// the rulings after them by number.
func sortKey(r Requirement) [3]int {
	if r.Ruling > 0 {
		return [3]int{1, r.Ruling, 0}
	}
	n, _ := strconv.Atoi(chapterID.FindStringSubmatch(r.ID)[2])
	return [3]int{0, r.Chapter, n}
}

func parseFile(name string, data []byte) ([]Requirement, []error) {
	var f file
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, []error{&Error{File: name, Reason: err.Error()}}
	}
	var errs []error
	fail := func(entry, format string, args ...any) {
		errs = append(errs, &Error{File: name, Entry: entry, Reason: fmt.Sprintf(format, args...)})
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		fail("", "unknown keys: %s", strings.Join(keys, ", "))
	}
	rulings := name == RulingsFile
	chapter := -1
	switch m := chapterFile.FindStringSubmatch(name); {
	case rulings:
		if f.Chapter != nil || f.Title != "" {
			fail("", "the rulings file has no chapter or title")
		}
	case m == nil:
		fail("", `the name is neither "NN-name.toml" (spec chapter NN) nor %q`, RulingsFile)
		return nil, errs
	default:
		chapter, _ = strconv.Atoi(m[1])
		switch {
		case chapter > MaxChapter:
			fail("", "chapter %d: spec 1.3's normative chapters are 00 to %02d", chapter, MaxChapter)
		case f.Chapter == nil || *f.Chapter != chapter:
			fail("", "chapter = %v does not match the file name's %02d", deref(f.Chapter), chapter)
		case strings.TrimSpace(f.Title) == "":
			fail("", "missing title")
		}
	}
	reqs := make([]Requirement, 0, len(f.Requirement))
	for i, e := range f.Requirement {
		label := e.ID
		if label == "" {
			label = fmt.Sprintf("requirement #%d", i+1)
		}
		r := Requirement{ID: e.ID, Chapter: chapter, Title: f.Title, Kind: Kind(e.Kind),
			Statement: e.Statement, Test: Method(e.Test), Tests: e.Tests, Why: e.Why,
			Ruling: e.Ruling, Chapters: e.Chapters, File: name}
		if e.Section != nil {
			r.Section = *e.Section
		}
		n := len(errs)
		if rulings {
			m := rulingID.FindStringSubmatch(e.ID)
			switch {
			case m == nil:
				fail(label, `id %q: a ruling's id is "RL<n>"`, e.ID)
			case m[1] != strconv.Itoa(e.Ruling):
				fail(label, "ruling = %d does not match the id", e.Ruling)
			}
			if r.Kind != Ruling {
				fail(label, "kind %q: a ruling's kind is %q", e.Kind, Ruling)
			}
			if len(e.Chapters) == 0 {
				fail(label, "missing chapters (the spec chapters the ruling settles)")
			}
			for _, ch := range e.Chapters {
				if ch < 0 || ch > MaxChapter {
					fail(label, "chapters: %d is not a chapter of spec 1.3", ch)
				}
			}
		} else {
			m := chapterID.FindStringSubmatch(e.ID)
			switch {
			case m == nil:
				fail(label, `id %q: a chapter's requirement id is "R<chapter>.<n>"`, e.ID)
			case m[1] != strconv.Itoa(chapter):
				fail(label, "id %q is not of chapter %d", e.ID, chapter)
			}
			if e.Ruling != 0 || len(e.Chapters) > 0 {
				fail(label, "ruling and chapters belong in %s", RulingsFile)
			}
			if !slices.Contains(Kinds, r.Kind) || r.Kind == Ruling {
				fail(label, "kind %q is not one of %s", e.Kind, kindList())
			}
		}
		if e.Section == nil {
			fail(label, `missing section ("" for text before the chapter's first heading)`)
		}
		if strings.TrimSpace(e.Statement) == "" {
			fail(label, "missing statement")
		}
		switch r.Test {
		case Protocol:
		case API:
			if len(e.Tests) == 0 {
				fail(label, `test = "api" names no tests`)
			}
		case None:
			if strings.TrimSpace(e.Why) == "" {
				fail(label, `test = "none" says no why`)
			}
		default:
			fail(label, "test %q is not one of protocol, api, none", e.Test)
		}
		if r.Test != API && len(e.Tests) > 0 {
			fail(label, `tests belong to test = "api"`)
		}
		if r.Test != None && e.Why != "" {
			fail(label, `why belongs to test = "none"`)
		}
		for _, t := range e.Tests {
			if path.IsAbs(t) || strings.Contains(t, "..") || !strings.HasSuffix(t, "_test.go") {
				fail(label, "tests: %q is not a repository-relative _test.go file", t)
			}
		}
		if len(errs) == n {
			reqs = append(reqs, r)
		}
	}
	return reqs, errs
}

func deref(p *int) any {
	if p == nil {
		return "(missing)"
	}
	return *p
}

func kindList() string {
	var s []string
	for _, k := range Kinds[:len(Kinds)-1] {
		s = append(s, strconv.Quote(string(k)))
	}
	return strings.Join(s, ", ")
}
