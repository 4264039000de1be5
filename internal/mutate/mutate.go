package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Mutant is one single-operator change to one file of the package: the bytes
// Off:Off+len(Old) of File, which read Old, read New in the mutant.
type Mutant struct {
	File string // base name, e.g. "knapsack.go"
	Line int
	Col  int // 1-based, in bytes
	// ReachLine is the line whose coverage tells whether the vectors
	// execute the mutant: Line, or for an expression of a switch case the
	// line of the switch (go cover counts case expressions in no block).
	ReachLine int
	Off       int
	Old       string
	New       string
}

func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d:%d: %s -> %s", m.File, m.Line, m.Col, m.Old, m.New)
}

// Apply returns src with m applied.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.New))
	out = append(out, src[:m.Off]...)
	out = append(out, m.New...)
	return append(out, src[m.Off+len(m.Old):]...)
}

// Package is the parsed, type-checked package that mutants are drawn from.
type Package struct {
	Dir   string
	Files []string          // base names of the non-test .go files, sorted
	Src   map[string][]byte // by base name
	// Targets, when set, are the base names of the files mutants are
	// drawn from (the whole package is still type-checked).
	Targets []string
	fset    *token.FileSet
	asts    map[string]*ast.File
	info    *types.Info
	imp     types.Importer
	cache   map[string]*types.Package
}

// Load parses and type-checks the non-test Go files of dir.
func Load(dir string) (*Package, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &Package{Dir: dir, Src: map[string][]byte{}, fset: token.NewFileSet(), asts: map[string]*ast.File{}, cache: map[string]*types.Package{}}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
			continue // excluded by a build constraint on this platform
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.Files = append(p.Files, n)
		p.Src[n] = src
		p.asts[n] = f
	}
	slices.Sort(p.Files)
	// The source importer finds the module's own packages (go/build asks
	// the go command in module mode); the default importer knows only the
	// standard library's export data.
	p.imp = importer.ForCompiler(p.fset, "source", nil)
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	if err := p.check(p.fset, p.astList(), p.info); err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", dir, err)
	}
	return p, nil
}

func (p *Package) astList() []*ast.File {
	fs := make([]*ast.File, len(p.Files))
	for i, n := range p.Files {
		fs[i] = p.asts[n]
	}
	return fs
}

func (p *Package) check(fset *token.FileSet, files []*ast.File, info *types.Info) error {
	conf := types.Config{Importer: p.imp, Error: func(error) {}}
	if ip, ok := p.imp.(types.ImporterFrom); ok {
		// Resolve imports from the package's directory (module mode).
		dir, _ := filepath.Abs(p.Dir)
		conf.Importer = &importerFrom{from: ip, dir: dir, cache: p.cache}
	}
	_, err := conf.Check("mutated", fset, files, info)
	return err
}

// Compiles reports whether the package type-checks with m applied.
func (p *Package) Compiles(m Mutant) bool {
	fset := token.NewFileSet()
	files := make([]*ast.File, len(p.Files))
	for i, n := range p.Files {
		src := p.Src[n]
		if n == m.File {
			src = m.Apply(src)
		}
		f, err := parser.ParseFile(fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		files[i] = f
	}
	return p.check(fset, files, nil) == nil
}

// swaps lists the replacements of each operator.
var swaps = map[token.Token][]token.Token{
	token.LSS: {token.LEQ, token.GEQ}, token.LEQ: {token.LSS, token.GTR},
	token.GTR: {token.GEQ, token.LEQ}, token.GEQ: {token.GTR, token.LSS},
	token.EQL: {token.NEQ}, token.NEQ: {token.EQL},
	token.ADD: {token.SUB}, token.SUB: {token.ADD},
	token.MUL: {token.QUO}, token.QUO: {token.MUL}, token.REM: {token.MUL},
	token.LAND: {token.LOR}, token.LOR: {token.LAND},
	token.AND: {token.OR}, token.OR: {token.AND}, token.XOR: {token.OR},
	token.SHL: {token.SHR}, token.SHR: {token.SHL},
	token.INC: {token.DEC}, token.DEC: {token.INC},
	token.ADD_ASSIGN: {token.SUB_ASSIGN}, token.SUB_ASSIGN: {token.ADD_ASSIGN},
	token.MUL_ASSIGN: {token.QUO_ASSIGN}, token.QUO_ASSIGN: {token.MUL_ASSIGN},
	token.OR_ASSIGN: {token.AND_ASSIGN}, token.AND_ASSIGN: {token.OR_ASSIGN},
}

// Sites returns every candidate mutant of the package, in file and offset
// order. Candidates need not compile; Sample keeps those that do.
func (p *Package) Sites() []Mutant {
	var ms []Mutant
	for _, n := range p.Files {
		if len(p.Targets) > 0 && !slices.Contains(p.Targets, n) {
			continue
		}
		f := p.asts[n]
		tf := p.fset.File(f.Pos())
		var stack []ast.Node // the nodes enclosing the current one
		add := func(pos token.Pos, old, new string) {
			ps := tf.Position(pos)
			reach := ps.Line
			for i := len(stack) - 1; i > 0; i-- {
				cc, ok := stack[i].(*ast.CaseClause)
				if !ok {
					continue
				}
				if len(cc.Body) > 0 && pos >= cc.Body[0].Pos() {
					break // in the case body: its own block
				}
				for j := i - 1; j >= 0; j-- {
					if sw, ok := stack[j].(ast.Stmt); ok {
						if _, isBlock := sw.(*ast.BlockStmt); !isBlock {
							reach = tf.Line(sw.Pos())
							break
						}
					}
				}
				break
			}
			ms = append(ms, Mutant{File: n, Line: ps.Line, Col: ps.Column, ReachLine: reach, Off: tf.Offset(pos), Old: old, New: new})
		}
		op := func(pos token.Pos, t token.Token) {
			for _, r := range swaps[t] {
				add(pos, t.String(), r.String())
			}
		}
		ast.Inspect(f, func(nd ast.Node) bool {
			if nd == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, nd)
			switch x := nd.(type) {
			case *ast.GenDecl:
				if x.Tok == token.IMPORT {
					stack = stack[:len(stack)-1] // no nil call follows a false
					return false
				}
			case *ast.BinaryExpr:
				if tv, ok := p.info.Types[x]; ok && tv.Value != nil {
					return true // constant expression: mutate its literals only
				}
				op(x.OpPos, x.Op)
			case *ast.IncDecStmt:
				op(x.TokPos, x.Tok)
			case *ast.AssignStmt:
				op(x.TokPos, x.Tok)
			case *ast.UnaryExpr:
				if x.Op == token.NOT || x.Op == token.SUB {
					add(x.OpPos, x.Op.String(), "")
				}
			case *ast.BasicLit:
				if x.Kind == token.INT {
					v, err := strconv.ParseInt(x.Value, 0, 64)
					if err != nil {
						return true
					}
					nv := "1"
					if v != 0 {
						nv = strconv.FormatInt(v+1, 10)
					}
					add(x.Pos(), x.Value, nv)
				}
			case *ast.Ident:
				if x.Name == "true" || x.Name == "false" {
					if _, ok := p.info.Uses[x].(*types.Const); ok {
						add(x.Pos(), x.Name, map[string]string{"true": "false", "false": "true"}[x.Name])
					}
				}
			}
			return true
		})
	}
	return ms
}

// Sample returns n mutants that type-check, drawn for seed: the candidates
// in a permutation fixed by seed, skipping those that do not compile. The
// same seed and package give the same mutants.
func (p *Package) Sample(seed uint64, n int) (sample []Mutant, sites int) {
	all := p.Sites()
	r := rand.New(rand.NewPCG(seed, 0x6375_7065_6c))
	for _, i := range r.Perm(len(all)) {
		if len(sample) == n {
			break
		}
		if p.Compiles(all[i]) {
			sample = append(sample, all[i])
		}
	}
	return sample, len(all)
}

// Named returns the mutants listed in file, one a line as Mutant.String
// prints them (leading text up to the file name, and anything after the
// mutation, such as the report's "reachable=..." columns or a note, is
// ignored; blank lines and lines that start with # are skipped).
func (p *Package) Named(file string) ([]Mutant, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	byName := map[string]Mutant{}
	for _, m := range p.Sites() {
		byName[strings.TrimSpace(m.String())] = m // "x.go:1:2: ! -> " ends in a space
	}
	var out []Mutant
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue // blank, or a comment line
		}
		m, ok := Mutant{}, false
		for name, c := range byName {
			// The longest name the line holds, followed by a space or the
			// end: "quota.go:1:2: < -> <=" is inside "countquota.go:...".
			i := strings.Index(line, name)
			if i < 0 || (i+len(name) < len(line) && line[i+len(name)] != ' ') || (i > 0 && line[i-1] != ' ' && line[i-1] != ']') {
				continue
			}
			if !ok || len(name) > len(strings.TrimSpace(m.String())) {
				m, ok = c, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s: no mutant %q in %s", file, line, p.Dir)
		}
		out = append(out, m)
	}
	return out, nil
}

// importerFrom resolves every import from one directory, once: the source
// importer asks the go command to locate a package on every import, even
// of one it has already type-checked.
type importerFrom struct {
	from  types.ImporterFrom
	dir   string
	cache map[string]*types.Package
}

func (i *importerFrom) Import(path string) (*types.Package, error) {
	if pkg, ok := i.cache[path]; ok {
		return pkg, nil
	}
	pkg, err := i.from.ImportFrom(path, i.dir, 0)
	if err == nil {
		i.cache[path] = pkg
	}
	return pkg, err
}
