package doccheck

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// CommentCode is a code block of a Go doc comment that parses as Go.
type CommentCode struct {
	// File is the Go file, relative to the repository root.
	File string
	// Line is the 1-based line where the doc comment starts.
	Line int
	// Text is the block, without the comment's indentation.
	Text string
}

// Where names the block as FILE:LINE.
func (c CommentCode) Where() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// DocCode returns the code blocks of the doc comments of a Go file (the
// package's, and those of its declarations, their specs and fields) that
// parse as Go: a file, declarations or statements. A block that does not
// (a command, a sample output, TOML, a sketch with "...") is not Go code.
func DocCode(file string, src []byte) ([]CommentCode, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("doccheck: %w", err)
	}
	var docs []*ast.CommentGroup
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.File:
			docs = append(docs, n.Doc)
		case *ast.FuncDecl:
			docs = append(docs, n.Doc)
		case *ast.GenDecl:
			docs = append(docs, n.Doc)
		case *ast.TypeSpec:
			docs = append(docs, n.Doc)
		case *ast.ValueSpec:
			docs = append(docs, n.Doc)
		case *ast.Field:
			docs = append(docs, n.Doc)
		}
		return true
	})
	var p comment.Parser
	var out []CommentCode
	for _, d := range docs {
		if d == nil {
			continue
		}
		for _, b := range p.Parse(d.Text()).Content {
			if c, ok := b.(*comment.Code); ok && IsGo(c.Text) {
				out = append(out, CommentCode{File: file, Line: fset.Position(d.Pos()).Line, Text: c.Text})
			}
		}
	}
	return out, nil
}

// IsGo reports whether text parses as a Go file, as declarations or as
// statements.
func IsGo(text string) bool {
	fset := token.NewFileSet()
	for _, src := range []string{text, "package p\n" + text, "package p\nfunc _() {\n" + text + "\n}\n"} {
		if _, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution); err == nil {
			return true
		}
	}
	return false
}

// Code is the compiled code of Go files, as the doc comments' blocks are
// looked up in it: each top-level declaration, function body and function
// literal, a slice of lines without their indentation.
type Code [][]string

// Add adds the top-level declarations, the functions' bodies and the
// function literals of a Go file to c.
func (c *Code) Add(file string, src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("doccheck: %w", err)
	}
	text := func(from, to token.Pos) {
		*c = append(*c, lines(string(src[fset.Position(from).Offset:fset.Position(to).Offset])))
	}
	for _, d := range f.Decls {
		text(d.Pos(), d.End())
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			text(fd.Body.Lbrace+1, fd.Body.Rbrace)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok {
			text(fl.Pos(), fl.End())
		}
		return true
	})
	return nil
}

// Contains reports whether the lines of text, without their indentation,
// are lines of one entry of c, in order and together. A function
// declaration is also found as a function literal of the same signature
// and body ("func TestX(t *testing.T) {" as "func(t *testing.T) {"), as
// an Example can hold a test function.
func (c Code) Contains(text string) bool {
	want := lines(text)
	if found(c, want) {
		return true
	}
	if fn := funcDecl.FindStringSubmatch(want[0]); fn != nil {
		lit := append([]string{"func" + fn[1]}, want[1:]...)
		return found(c, lit)
	}
	return false
}

// funcDecl is the first line of a function declaration, without a
// receiver: what follows its name.
var funcDecl = regexp.MustCompile(`^func [A-Za-z_][A-Za-z0-9_]*(\(.*)$`)

func found(c Code, want []string) bool {
	for _, have := range c {
		for i := 0; i+len(want) <= len(have); i++ {
			if equal(have[i:i+len(want)], want) {
				return true
			}
		}
	}
	return false
}

func lines(s string) []string {
	l := strings.Split(strings.Trim(s, "\n"), "\n")
	for i := range l {
		l[i] = strings.TrimSpace(l[i])
	}
	return l
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
