// Command mutate measures how many faults of package cupel the conformance
// vectors and the unit tests catch, by mutation testing.
//
// Usage, from the module root:
//
//	nice -n 10 go run ./internal/mutate -seed 1 -n 80
//
// It draws n single-operator mutants of the non-test files of cupel/ for
// the seed (see [Package.Sample]), and for each one builds cupel-conform with
// the mutated file laid over the tree (go build -overlay: the tree is never
// written to), runs the embedded vector suite, and then runs go test ./cupel
// with the same overlay. A mutant is killed by the vectors when the run does
// not print Cupel Fully Conformant and exit 0, by the tests when go test
// fails; a mutant that hangs past -timeout is killed too.
//
// A mutant is "reachable" when the vector suite executes its line on the
// unmutated engine (a coverage build of cupel-conform, run once).
//
// See vectors/README.md, "Measuring suite strength".
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type result struct {
	Mutant
	Reachable   bool
	VectorsRun  bool
	VectorsKill bool
	TestsKill   bool
	TestsRun    bool
	Note        string
	ExploreRun  bool
	ExploreKill bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of the sample")
	n := fs.Int("n", 160, "number of mutants")
	pkg := fs.String("pkg", "cupel", "directory of the package to mutate, relative to the module root")
	timeout := fs.Duration("timeout", 2*time.Minute, "limit per build or run of one mutant")
	tests := fs.String("tests", "all", "when to run go test on -pkg: all | survivors (of the vectors) | none")
	list := fs.Bool("list", false, "print the sample and exit")
	reach := fs.Bool("reachability", false, "print the sample with whether the vectors reach each mutant (one coverage run, no mutant built) and exit")
	verbose := fs.Bool("v", false, "print the output of the runs that kill a mutant")
	files := fs.String("files", "", "comma-separated base names of the files of -pkg to draw mutants from (default: every non-test file)")
	vectors := fs.Bool("vectors", true, "build cupel-conform with each mutant and run the vector suite (false: the tests alone judge; no reachability)")
	explore := fs.Int("explore", 0, "for each mutant the vectors leave alive, run `N` cases of cupel-conform explore (seed 1) with the mutant as the implementation (over the protocol) and go-cupel as the oracle; killed when it finds a divergence")
	testArgs := fs.String("testargs", "", "extra arguments of go test, space-separated (e.g. -ginkgo.focus=explore)")
	only := fs.String("only", "", "run the mutants listed in this file (one \"file:line:col: old -> new\" a line, as the report prints them, text after it ignored; # starts a comment line) instead of a sample")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *tests != "all" && *tests != "survivors" && *tests != "none" {
		fmt.Fprintln(stderr, "mutate: -tests must be all, survivors or none")
		return 2
	}
	p, err := Load(*pkg)
	if err != nil {
		fmt.Fprintln(stderr, "mutate:", err)
		return 1
	}
	if *files != "" {
		for _, f := range strings.Split(*files, ",") {
			if _, ok := p.Src[f]; !ok {
				fmt.Fprintf(stderr, "mutate: -files: no file %s in %s\n", f, *pkg)
				return 2
			}
			p.Targets = append(p.Targets, f)
		}
	}
	if !*vectors && *tests == "survivors" {
		fmt.Fprintln(stderr, "mutate: -tests survivors needs the vectors (-vectors=true)")
		return 2
	}
	sample, sites := p.Sample(*seed, *n)
	if *only != "" {
		if sample, err = p.Named(*only); err != nil {
			fmt.Fprintln(stderr, "mutate:", err)
			return 1
		}
	}
	if *list {
		for _, m := range sample {
			fmt.Fprintln(stdout, m)
		}
		return 0
	}
	tmp, err := os.MkdirTemp("", "cupel-mutate-")
	if err != nil {
		fmt.Fprintln(stderr, "mutate:", err)
		return 1
	}
	defer os.RemoveAll(tmp)

	cov := coverSet{}
	if *vectors {
		if cov, err = coverage(tmp, *pkg, *timeout); err != nil {
			fmt.Fprintln(stderr, "mutate: coverage run:", err)
			return 1
		}
	}
	if *reach {
		for _, m := range sample {
			fmt.Fprintf(stdout, "%-50s reachable=%v\n", m, cov.covered(m.File, m.ReachLine))
		}
		return 0
	}
	absPkg, _ := filepath.Abs(*pkg)
	oracle := filepath.Join(tmp, "cupel-conform-oracle")
	if *explore > 0 {
		if out, err := command(*timeout, "", "go", "build", "-o", oracle, "./cmd/cupel-conform"); err != nil {
			fmt.Fprintln(stderr, "mutate: building the oracle:", err, out)
			return 1
		}
	}
	var res []result
	for i, m := range sample {
		r := result{Mutant: m, Reachable: cov.covered(m.File, m.ReachLine), VectorsRun: *vectors}
		mf := filepath.Join(tmp, "mutant.go")
		ov := filepath.Join(tmp, "overlay.json")
		src := m.Apply(p.Src[m.File])
		if err := os.WriteFile(mf, src, 0o644); err != nil {
			fmt.Fprintln(stderr, "mutate:", err)
			return 1
		}
		js, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(absPkg, m.File): mf}})
		if err := os.WriteFile(ov, js, 0o644); err != nil {
			fmt.Fprintln(stderr, "mutate:", err)
			return 1
		}
		bin := filepath.Join(tmp, "cupel-conform")
		if !*vectors {
			// The tests alone judge.
		} else if out, err := command(*timeout, "", "go", "build", "-overlay", ov, "-o", bin, "./cmd/cupel-conform"); err != nil {
			r.Note = "build failed: " + firstLine(out)
			r.VectorsKill = true // counted as killed, reported
		} else {
			out, err := command(*timeout, "", bin, "run")
			r.VectorsKill = err != nil || !strings.Contains(out, "Cupel Fully Conformant")
			if r.VectorsKill && *verbose {
				fmt.Fprintf(stderr, "%s: vectors: %v\n%s\n", m, err, out)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				r.Note = "vectors: timeout"
			}
		}
		if *explore > 0 && *vectors && !r.VectorsKill && r.Note == "" {
			// The oracle is the unmutated go-cupel, in process in the
			// unmutated binary; the mutant answers over the protocol.
			r.ExploreRun = true
			out, err := command(*timeout, "", oracle, "explore", "--impl-cmd", bin+" adapter", "--seed", "1",
				"--cases", strconv.Itoa(*explore), "--quiet", "--shrink-runs", "50")
			r.ExploreKill = err != nil
			if r.ExploreKill && *verbose {
				fmt.Fprintf(stderr, "%s: explore: %v\n%s\n", m, err, out)
			}
		}
		if *tests == "all" || (*tests == "survivors" && !r.VectorsKill) {
			r.TestsRun = true
			args := append([]string{"test", "-overlay", ov, "-count=1", "-timeout", timeout.String(), "./" + filepath.ToSlash(*pkg)}, strings.Fields(*testArgs)...)
			out, err := command(*timeout+30*time.Second, "", "go", args...)
			r.TestsKill = err != nil
			if r.TestsKill && *verbose {
				fmt.Fprintf(stderr, "%s: tests: %v\n%s\n", m, err, out)
			}
		}
		res = append(res, r)
		fmt.Fprintf(stderr, "[%d/%d] %-50s reachable=%-5v vectors=%-8s tests=%-8s explore=%s %s\n", i+1, len(sample), m,
			r.Reachable, verdict(r.VectorsKill, *vectors), verdict(r.TestsKill, r.TestsRun), verdict(r.ExploreKill, r.ExploreRun), r.Note)
	}
	what := fmt.Sprintf("seed %d: %d mutants drawn from %d candidate sites (mutants that do not type-check are skipped)", *seed, len(res), sites)
	if *only != "" {
		what = fmt.Sprintf("%d mutants listed in %s", len(res), *only)
	}
	report(stdout, what, res)
	return 0
}

func verdict(killed, ran bool) string {
	switch {
	case !ran:
		return "-"
	case killed:
		return "killed"
	}
	return "survived"
}

func pct(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

func report(w io.Writer, what string, res []result) {
	var reach, vk, vkReach, tk, both, testsRun int
	for _, r := range res {
		if r.Reachable {
			reach++
			if r.VectorsKill {
				vkReach++
			}
		}
		if r.VectorsKill {
			vk++
		}
		if r.TestsRun {
			testsRun++
			if r.TestsKill {
				tk++
			}
		}
		if r.VectorsKill || r.TestsKill {
			both++
		}
	}
	vectorsRun := len(res) > 0 && res[0].VectorsRun
	fmt.Fprintln(w, what)
	if vectorsRun {
		fmt.Fprintf(w, "vectors alone:        %d/%d killed (%s)\n", vk, len(res), pct(vk, len(res)))
		fmt.Fprintf(w, "vectors, reachable:   %d/%d killed (%s) [line executed by the suite]\n", vkReach, reach, pct(vkReach, reach))
	} else {
		fmt.Fprintln(w, "vectors:              not run (-vectors=false)")
	}
	fmt.Fprintf(w, "go test:              %d/%d killed (%s) [of the mutants it ran on]\n", tk, testsRun, pct(tk, testsRun))
	if vectorsRun {
		fmt.Fprintf(w, "vectors + tests:      %d/%d killed (%s)\n", both, len(res), pct(both, len(res)))
	}
	var er, ek int
	for _, r := range res {
		if r.ExploreRun {
			er++
			if r.ExploreKill {
				ek++
			}
		}
	}
	if er > 0 {
		fmt.Fprintf(w, "explore:              %d/%d of the vectors' survivors killed (%s)\n", ek, er, pct(ek, er))
	}
	fmt.Fprintln(w, "survivors (classify each: equivalent or not):")
	for _, r := range res {
		if (r.VectorsKill || !r.VectorsRun) && (r.TestsKill || !r.TestsRun) {
			continue // killed by every judge that ran
		}
		what := "survives vectors"
		if r.ExploreRun {
			what += ", explore " + verdict(r.ExploreKill, true)
		}
		switch {
		case r.VectorsRun && !r.VectorsKill && !r.TestsKill && r.TestsRun:
			what = "survives both"
		case r.VectorsKill || !r.VectorsRun:
			what = "survives tests"
		}
		fmt.Fprintf(w, "  %-50s reachable=%-5v %s\n", r.Mutant, r.Reachable, what)
	}
}

// command runs name args in dir with a time limit and returns its combined output.
func command(limit time.Duration, dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), ctx.Err()
	}
	return string(out), err
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// coverSet holds, per file, the line ranges of blocks the suite executed.
type coverSet map[string][][2]int

func (c coverSet) covered(file string, line int) bool {
	for _, r := range c[file] {
		if r[0] <= line && line <= r[1] {
			return true
		}
	}
	return false
}

// coverage runs the vector suite once on a coverage build of cupel-conform
// and returns the lines of pkg it executed.
func coverage(tmp, pkg string, limit time.Duration) (coverSet, error) {
	bin := filepath.Join(tmp, "cupel-conform-cover")
	out, err := command(limit, "", "go", "list", "./"+pkg, "./cmd/cupel-conform")
	paths := strings.Fields(out)
	if err != nil || len(paths) != 2 {
		return nil, fmt.Errorf("go list: %v: %s", err, out)
	}
	// -coverpkg wants import paths, and the main package must be among them
	// or the binary writes no coverage data at all.
	if out, err := command(limit, "", "go", "build", "-cover", "-coverpkg="+paths[0]+","+paths[1], "-o", bin, "./cmd/cupel-conform"); err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	dir := filepath.Join(tmp, "covdata")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "run")
	cmd.Env = append(os.Environ(), "GOCOVERDIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("the unmutated suite does not pass: %v: %s", err, out)
	}
	txt := filepath.Join(tmp, "cover.txt")
	if out, err := command(limit, "", "go", "tool", "covdata", "textfmt", "-i", dir, "-o", txt); err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	f, err := os.Open(txt)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseCoverProfile(f, paths[0])
}

// parseCoverProfile reads a text coverage profile (mode line, then
// "path/file.go:l1.c1,l2.c2 stmts count") into the executed line ranges of
// the files of package pkgPath.
func parseCoverProfile(r io.Reader, pkgPath string) (coverSet, error) {
	c := coverSet{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		colon := strings.LastIndexByte(line, ':')
		fields := strings.Fields(line[colon+1:])
		if colon < 0 || len(fields) != 3 {
			return nil, fmt.Errorf("bad coverage line %q", line)
		}
		if fields[2] == "0" {
			continue
		}
		var l1, c1, l2, c2 int
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &l1, &c1, &l2, &c2); err != nil {
			return nil, fmt.Errorf("bad coverage line %q: %w", line, err)
		}
		file := line[:colon]
		if path.Dir(file) != pkgPath {
			continue
		}
		base := path.Base(file)
		c[base] = append(c[base], [2]int{l1, l2})
	}
	return c, sc.Err()
}
