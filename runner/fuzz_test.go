package runner_test

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/vectors"
)

// FuzzVectorParse feeds arbitrary bytes to the vector loader, as any file of
// a --suite directory would be. Invariants:
//   - LoadCase never panics (its own recover would report a panic as an
//     "internal loader error", which fails the target);
//   - an error is a *casefile.SuiteError naming the file;
//   - a case that loads can be sent (its run request encodes as JSON), run
//     by the in-process engine, and judged by Compare without panicking.
//
// Seeds: every vector of the embedded suite.
func FuzzVectorParse(f *testing.F) {
	_ = fs.WalkDir(vectors.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".toml") {
			data, _ := fs.ReadFile(vectors.FS, p)
			f.Add(strings.Split(p, "/")[1], data)
		}
		return nil
	})
	f.Add("scoring", []byte("[test]\nstage = \"scoring\"\nscorer = \"composite\"\n[[config.scorers]]\ntype = \"composite\"\n"))
	f.Add("pipeline", []byte("[test\n"))
	engine := runner.Engine()
	f.Fuzz(func(t *testing.T, stage string, data []byte) {
		name := path.Join("optional", stage, "fuzz.toml")
		c, err := casefile.LoadCase(name, data)
		if err != nil {
			var se *casefile.SuiteError
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, not a *casefile.SuiteError: %v", err, err)
			}
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error does not name the file %q: %v", name, err)
			}
			return
		}
		req := protocol.NewRequest(1, c)
		if _, err := jsonMarshal(req); err != nil {
			t.Fatalf("a loaded case does not encode: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := engine.Run(ctx, req)
		if err != nil {
			return // the engine reports its own faults
		}
		_ = runner.Compare(c, res)
	})
}

// The fuzz implementation: when CUPEL_FUZZ_OUTPUT names a file, the test
// binary acts as an implementation that answers hello correctly and then
// writes that file's bytes, verbatim, as its answer to the first run.
func init() {
	out := os.Getenv("CUPEL_FUZZ_OUTPUT")
	if out == "" {
		return
	}
	data, err := os.ReadFile(out)
	if err != nil {
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	_, _ = in.ReadBytes('\n') // hello
	os.Stdout.WriteString(`{"type":"hello","protocol":"cupel-conform/1","implementation":{"name":"fuzz","version":"0","language":"go"}}` + "\n")
	_, _ = in.ReadBytes('\n') // run
	os.Stdout.Write(data)
	os.Exit(0)
}

// FuzzProtocol feeds arbitrary bytes from an implementation to the runner's
// session, through a real process. Invariants: Run never panics and returns
// within its deadline (no hang); it returns either a result or a
// *protocol.Fault carrying a case status; Compare judges any decoded result
// without panicking. Memory stays bounded because lines are capped at
// 16 MiB by the reader (a property covered by the runner's fault specs).
func FuzzProtocol(f *testing.F) {
	f.Add([]byte(`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"index":0,"score":0.5}]}}` + "\n"))
	f.Add([]byte(`{"type":"result","seq":2,"status":"ok"}` + "\n"))
	f.Add([]byte(`{"type":"result","seq":1,"status":"ok","output":{"selected":[0,7,-1],"ordered":[99]}}` + "\n"))
	f.Add([]byte(`{"type":"result","seq":1,"status":"rejected","error":{"kind":"overflow","message":"x"}}` + "\n"))
	f.Add([]byte(`{"type":"result","seq":1,"status":"ok","output":{"scores":[{"index":0,"score":"NaN"}],"diagnostics":{"included":[{"index":5}]}}}` + "\n"))
	f.Add([]byte("not json\n"))
	f.Add([]byte(`{"type":"result","seq":1`))
	f.Add([]byte{})
	f.Add([]byte("\xff\xfe\n"))
	data, err := fs.ReadFile(vectors.FS, "required/scoring/recency-basic.toml")
	if err != nil {
		f.Fatal(err)
	}
	c, err := casefile.LoadCase("required/scoring/recency-basic.toml", data)
	if err != nil {
		f.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		out := t.TempDir() + "/answer"
		if err := os.WriteFile(out, answer, 0o600); err != nil {
			t.Fatal(err)
		}
		p := protocol.NewProcess(protocol.ProcessOptions{
			Argv:           []string{exe, "-test.run=^$"},
			Env:            append(os.Environ(), "CUPEL_FUZZ_OUTPUT="+out),
			StartupTimeout: time.Minute, // generous: a loaded machine starts a race-built binary slowly
			Restarts:       -1,
		})
		defer p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err := p.Hello(ctx); err != nil {
			t.Fatalf("hello: %v", err)
		}
		done := make(chan struct{})
		var res protocol.Result
		var runErr error
		go func() {
			defer close(done)
			res, runErr = p.Run(ctx, protocol.NewRequest(1, c))
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Minute): // well after ctx ends: only a runner that ignores it hangs
			t.Fatal("Run did not return: the runner hung")
		}
		if runErr != nil {
			var fault *protocol.Fault
			if !errors.As(runErr, &fault) {
				t.Fatalf("error is %T, not a *protocol.Fault: %v", runErr, runErr)
			}
			if fault.Outcome == "" {
				t.Fatalf("fault without a status: %v", fault)
			}
			return
		}
		_ = runner.Compare(c, res)
	})
}
