package doccheck

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Block is one fenced block of a Markdown file.
type Block struct {
	// File is the Markdown file, relative to the repository root.
	File string
	// Line is the 1-based line of the opening fence.
	Line int
	// Lang is the info string of the opening fence ("go", "sh", "").
	Lang string
	// Marker is the comment on the last non-blank line before the fence
	// (without "<!--" and "-->"), or "".
	Marker string
	// Content is the text between the fences, each line ending in "\n".
	Content string
	// start and end are the byte offsets of Content in the file.
	start, end int
}

// Where names the block as FILE:LINE.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// ErrMarker reports a block whose marker is missing or malformed.
var ErrMarker = errors.New("doccheck: bad marker")

var markerRE = regexp.MustCompile(`^<!--\s*(.*?)\s*-->$`)

// Blocks returns the fenced blocks of a Markdown file (fences at the start
// of a line; an unclosed fence ends the file).
func Blocks(file string, md []byte) []Block {
	var blocks []Block
	var cur *Block
	lastText := ""
	off := 0
	for n, line := range strings.SplitAfter(string(md), "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			b := Block{File: file, Line: n + 1, Lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), start: off + len(line)}
			if m := markerRE.FindStringSubmatch(strings.TrimSpace(lastText)); m != nil {
				b.Marker = m[1]
			}
			cur = &b
		case cur != nil && trimmed == "```":
			cur.end = off
			cur.Content = string(md[cur.start:cur.end])
			blocks = append(blocks, *cur)
			cur, lastText = nil, ""
		case cur == nil && strings.TrimSpace(trimmed) != "":
			lastText = trimmed
		}
		off += len(line)
	}
	return blocks
}

// Replace returns md with the content of each block in repl replaced; the
// blocks are those Blocks returned for md.
func Replace(md []byte, repl map[int]string, blocks []Block) []byte {
	var out bytes.Buffer
	prev := 0
	for i, b := range blocks {
		s, ok := repl[i]
		if !ok {
			continue
		}
		out.Write(md[prev:b.start])
		out.WriteString(s)
		prev = b.end
	}
	out.Write(md[prev:])
	return out.Bytes()
}

// GoRef is the Go source a ```go block copies, parsed from its marker.
type GoRef struct {
	Path string // relative to the repository root
	Name string // "" for the whole file
	Body bool   // the function's statements rather than its declaration
}

// ParseGoMarker parses "go: PATH[#NAME[.body]]".
func ParseGoMarker(marker string) (GoRef, error) {
	rest, ok := strings.CutPrefix(marker, "go:")
	if !ok {
		return GoRef{}, fmt.Errorf("%w: want <!-- go: PATH[#NAME[.body]] --> before a go block, got %q", ErrMarker, marker)
	}
	path, name, _ := strings.Cut(strings.TrimSpace(rest), "#")
	ref := GoRef{Path: path}
	ref.Name, ref.Body = strings.CutSuffix(name, ".body")
	if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
		return GoRef{}, fmt.Errorf("%w: path %q must be relative to the repository root", ErrMarker, path)
	}
	return ref, nil
}

// Source returns the text a block marked with ref must hold, read from the
// repository at root.
func Source(root string, ref GoRef) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ref.Path)))
	if err != nil {
		return "", fmt.Errorf("doccheck: %w", err)
	}
	if ref.Name == "" {
		return string(src), nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, ref.Path, src, parser.ParseComments)
	if err != nil {
		return "", fmt.Errorf("doccheck: %w", err)
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != ref.Name || d.Recv != nil {
				continue
			}
			if !ref.Body {
				return string(src[offset(d.Pos()):offset(d.End())]) + "\n", nil
			}
			return body(string(src[offset(d.Body.Lbrace)+1 : offset(d.Body.Rbrace)])), nil
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if declares(s, ref.Name) {
					if ref.Body {
						return "", fmt.Errorf("%w: %s#%s is not a function", ErrMarker, ref.Path, ref.Name)
					}
					return string(src[offset(d.Pos()):offset(d.End())]) + "\n", nil
				}
			}
		}
	}
	return "", fmt.Errorf("%w: %s declares no %s", ErrMarker, ref.Path, ref.Name)
}

func declares(s ast.Spec, name string) bool {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Name.Name == name
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// body dedents a function body by one tab and drops an Example's output
// comment.
func body(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "// Output:") || strings.HasPrefix(t, "// Unordered output:") {
			lines = lines[:i]
			break
		}
	}
	var out strings.Builder
	for _, l := range lines {
		out.WriteString(strings.TrimPrefix(l, "\t"))
		out.WriteString("\n")
	}
	return out.String()
}

// ParseFileMarker parses "file: PATH", the marker of a block of any
// language that is a copy of a whole file; ok is false for other markers.
func ParseFileMarker(marker string) (ref GoRef, ok bool, err error) {
	rest, ok := strings.CutPrefix(marker, "file:")
	if !ok {
		return GoRef{}, false, nil
	}
	ref, err = ParseGoMarker("go:" + strings.TrimSpace(rest))
	if err != nil || ref.Name != "" {
		return GoRef{}, true, fmt.Errorf("%w: want <!-- file: PATH -->, got %q", ErrMarker, marker)
	}
	return ref, true, nil
}

// ParseOutputMarker parses "output: exit=N" and returns N.
func ParseOutputMarker(marker string) (int, error) {
	rest, ok := strings.CutPrefix(marker, "output:")
	if ok {
		if n, found := strings.CutPrefix(strings.TrimSpace(rest), "exit="); found {
			if code, err := strconv.Atoi(n); err == nil {
				return code, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: want <!-- output: exit=N --> before an untagged block (tag it ```text if it is not a command's output), got %q", ErrMarker, marker)
}

// Script returns the command of a sample output: the closest ```sh block
// before block i, with "go run ./cmd/cupel-conform" written as
// "cupel-conform".
func Script(blocks []Block, i int) (string, error) {
	for j := i - 1; j >= 0; j-- {
		if blocks[j].Lang == "sh" {
			return strings.ReplaceAll(blocks[j].Content, "go run ./cmd/cupel-conform", "cupel-conform"), nil
		}
	}
	return "", fmt.Errorf("%w: %s: no ```sh block before the output", ErrMarker, blocks[i].Where())
}
