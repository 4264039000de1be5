package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files of an offline exchange directory.
const (
	CasesFile    = "cases.jsonl"
	ManifestFile = "manifest.json"
	ResultsFile  = "results.jsonl"
)

// Manifest describes an exported suite.
type Manifest struct {
	Protocol string     `json:"protocol"`
	Runner   RunnerInfo `json:"runner"`
	Suite    HelloSuite `json:"suite"`
	Cases    int        `json:"cases"`
}

// Export writes the cases of the suite (as run messages, one per line) to
// dir/cases.jsonl and a manifest with the suite digest to
// dir/manifest.json. The seq of each case is its 1-based line number.
func Export(suite *Suite, cases []*Case, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	for i, c := range cases {
		b, err := json.Marshal(RunMessage{Type: TypeRun, Request: NewRequest(i+1, c)})
		if err != nil {
			return fmt.Errorf("export %s: %w", c.ID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, CasesFile), buf.Bytes(), 0o644); err != nil {
		return err
	}
	m := Manifest{Protocol: Protocol, Runner: RunnerInfo{Name: Name, Version: Version},
		Suite: HelloSuite{SpecVersion: suite.SpecVersion, Digest: suite.Digest}, Cases: len(cases)}
	b, _ := json.MarshalIndent(m, "", "  ")
	return os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644)
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
	hello HelloResponse
	byID  map[string]Result
}

// ReadResults parses a results file. Every line must be valid; a case
// answered twice is an error.
func ReadResults(r io.Reader) (*Results, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	res := &Results{byID: map[string]Result{}}
	n := 0
	for sc.Scan() {
		n++
		line := relaxJSON(bytes.TrimSpace(sc.Bytes()))
		if len(line) == 0 {
			continue
		}
		var env envelope
		if err := json.Unmarshal(line, &env); err != nil {
			return nil, fmt.Errorf("%w: %w: line %d is not JSON: %v", ErrInfrastructure, ErrProtocol, n, err)
		}
		switch env.Type {
		case TypeHello:
			if err := json.Unmarshal(line, &res.hello); err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrInfrastructure, n, err)
			}
		case TypeResult:
			var m ResultMessage
			if err := json.Unmarshal(line, &m); err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrInfrastructure, n, err)
			}
			if _, dup := res.byID[m.ID]; dup {
				return nil, fmt.Errorf("%w: line %d: case %s has more than one result", ErrInfrastructure, n, m.ID)
			}
			res.byID[m.ID] = m.Result
		default:
			return nil, fmt.Errorf("%w: line %d: unexpected message type %q", ErrInfrastructure, n, env.Type)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInfrastructure, err)
	}
	if res.hello.Type != TypeHello {
		return nil, fmt.Errorf("%w: the results file has no hello line", ErrInfrastructure)
	}
	return res, nil
}

// Check verifies that the results answer exactly the given cases and, when
// the hello echoes a suite digest, that it is digest.
func (r *Results) Check(cases []*Case, digest string) error {
	if r.hello.Suite != nil && r.hello.Suite.Digest != "" && r.hello.Suite.Digest != digest {
		return fmt.Errorf("%w: results are for suite %s, not %s", ErrInfrastructure, r.hello.Suite.Digest, digest)
	}
	want := map[string]bool{}
	var missing []string
	for _, c := range cases {
		want[c.ID] = true
		if _, ok := r.byID[c.ID]; !ok {
			missing = append(missing, c.ID)
		}
	}
	var extra []string
	for id := range r.byID {
		if !want[id] {
			extra = append(extra, id)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %d cases have no result (first: %s)", ErrInfrastructure, len(missing), missing[0])
	}
	if len(extra) > 0 {
		return fmt.Errorf("%w: %d results are for unknown cases (first: %s)", ErrInfrastructure, len(extra), extra[0])
	}
	return nil
}

// Hello returns the implementation named by the hello line.
func (r *Results) Hello(context.Context) (Info, error) { return r.hello.Info(), nil }

// Run returns the recorded result of the case.
func (r *Results) Run(_ context.Context, req Request) (Result, error) {
	res, ok := r.byID[req.ID]
	if !ok {
		return Result{}, &Fault{Status: StatusError, Message: "no result recorded for " + req.ID}
	}
	return res, nil
}
