// Package offline is the offline exchange of cupel-conform: export writes
// the cases for an implementation that cannot be driven live, and a results
// file written by it is read back as a protocol.Implementation for verify.
package offline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Files of an offline exchange directory.
const (
	CasesFile    = "cases.jsonl"
	ManifestFile = "manifest.json"
	ResultsFile  = "results.jsonl"
)

// Manifest describes an exported suite.
type Manifest struct {
	Protocol string                  `json:"protocol"`
	Runner   protocol.RunnerIdentity `json:"runner"`
	Suite    protocol.HelloSuite     `json:"suite"`
	Cases    int                     `json:"cases"`
}

// Export writes the cases of the suite (as run messages, one per line) to
// dir/cases.jsonl and a manifest with the suite digest to
// dir/manifest.json. The seq of each case is its 1-based line number.
func Export(suite *casefile.Suite, cases []*casefile.Case, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	for i, c := range cases {
		b, err := json.Marshal(protocol.RunMessage{Type: protocol.TypeRun, Request: protocol.NewRequest(i+1, c)})
		if err != nil {
			return fmt.Errorf("export %s: %w", c.ID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := atomicfile.WriteBytes(filepath.Join(dir, CasesFile), buf.Bytes()); err != nil {
		return err
	}
	m := Manifest{Protocol: protocol.Protocol, Runner: protocol.RunnerIdentity{Name: protocol.Name, Version: protocol.Version},
		Suite: protocol.HelloSuite{SpecVersion: suite.SpecVersion, Digest: suite.Digest}, Cases: len(cases)}
	b, _ := json.MarshalIndent(m, "", "  ")
	return atomicfile.WriteBytes(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	return &m, nil
}

// Results is an Implementation read from a results file (a hello line,
// then one result line per case), for offline verification.
type Results struct {
	hello protocol.HelloResponse
	byID  map[string]protocol.Result
	// refused holds the fault of each case whose result line was refused
	// (a key given twice, a documented key under case folding only).
	refused map[string]*protocol.Fault
	// lines holds each case's result line as the file states it (bounded
	// by bound.Line), for the report of a case that does not pass.
	lines map[string]string
	mu    sync.Mutex
	last  string // the ID of the last case run
}

// ReadResults parses a results file. Every line must be valid; a case
// answered twice is an error.
func ReadResults(r io.Reader) (*Results, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), protocol.MaxLine)
	res := &Results{byID: map[string]protocol.Result{}, refused: map[string]*protocol.Fault{}, lines: map[string]string{}}
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		sent := line
		typ, line, err := protocol.ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", protocol.ErrInfrastructure, n, err)
		}
		switch typ {
		case protocol.TypeHello:
			h, err := protocol.DecodeHello(line)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", protocol.ErrInfrastructure, n, err)
			}
			res.hello = h
		case protocol.TypeResult:
			m, err := protocol.DecodeResult(line)
			if err != nil {
				// A line refused for its keys is an error for its case,
				// when the line names the case without doubt.
				id, ok := protocol.ExactID(line)
				if !errors.Is(err, wirejson.ErrKey) || !ok {
					return nil, fmt.Errorf("%w: line %d: %v", protocol.ErrInfrastructure, n, err)
				}
				m = protocol.ResultMessage{ID: id}
				res.refused[id] = &protocol.Fault{Outcome: protocol.OutcomeError, Message: fmt.Sprintf("%s line %d: result line refused", ResultsFile, n), Line: bound.Line(sent), Err: err}
			}
			if _, dup := res.lines[m.ID]; dup {
				return nil, fmt.Errorf("%w: line %d: case %s has more than one result", protocol.ErrInfrastructure, n, m.ID)
			}
			res.lines[m.ID] = bound.Line(sent)
			if res.refused[m.ID] == nil {
				res.byID[m.ID] = m.Result.Bounded() // cut as a live run cuts it
			}
		default:
			return nil, fmt.Errorf("%w: line %d: unexpected message type %q", protocol.ErrInfrastructure, n, typ)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", protocol.ErrInfrastructure, err)
	}
	if res.hello.Type != protocol.TypeHello {
		return nil, fmt.Errorf("%w: the results file has no hello line", protocol.ErrInfrastructure)
	}
	return res, nil
}

// Check verifies that the results answer exactly the given cases and, when
// the hello echoes a suite digest, that it is digest.
func (r *Results) Check(cases []*casefile.Case, digest string) error {
	if r.hello.Suite != nil && r.hello.Suite.Digest != "" && r.hello.Suite.Digest != digest {
		return fmt.Errorf("%w: results are for suite %s, not %s", protocol.ErrInfrastructure, r.hello.Suite.Digest, digest)
	}
	want := map[string]bool{}
	var missing []string
	for _, c := range cases {
		want[c.ID] = true
		if _, ok := r.lines[c.ID]; !ok {
			missing = append(missing, c.ID)
		}
	}
	var extra []string
	for id := range r.lines {
		if !want[id] {
			extra = append(extra, id)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %d cases have no result (first: %s)", protocol.ErrInfrastructure, len(missing), missing[0])
	}
	if len(extra) > 0 {
		return fmt.Errorf("%w: %d results are for unknown cases (first: %s)", protocol.ErrInfrastructure, len(extra), extra[0])
	}
	return nil
}

// Hello returns the implementation named by the hello line.
func (r *Results) Hello(context.Context) (protocol.Identity, error) { return r.hello.Info(), nil }

// Run returns the recorded result of the case.
func (r *Results) Run(_ context.Context, req protocol.Request) (protocol.Result, error) {
	r.mu.Lock()
	r.last = req.ID
	r.mu.Unlock()
	if f := r.refused[req.ID]; f != nil {
		g := *f // a copy: the runner may add to it
		return protocol.Result{}, &g
	}
	res, ok := r.byID[req.ID]
	if !ok {
		return protocol.Result{}, &protocol.Fault{Outcome: protocol.OutcomeError, Message: "no result recorded for " + req.ID}
	}
	return res, nil
}

// CaseLine implements protocol.LineReporter: the result line of the last
// case run, as the file states it (bounded).
func (r *Results) CaseLine() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lines[r.last]
}
