package explorefuzz

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/cupel-go/go-cupel/runner/explore"
	"github.com/cupel-go/go-cupel/runner/protocol"
	"github.com/cupel-go/go-cupel/vectors"
)

// Fuzz makes f a fuzz target that explores impl against go-cupel (or
// opts.Oracle): each input is decoded by [explore.Session.CheckInput]
// into a case, run on both sides and compared; a divergence fails the
// input, named by its class, verdict and the vector written under
// opts.Out (when set). The seed corpus is every vector of the embedded
// suite (vectors.FS) and a few short generated inputs. Call it from a
// FuzzXxx function:
//
//	func FuzzExplore(f *testing.F) {
//		explorefuzz.Fuzz(f, myImpl{}, explore.Options{Out: "testdata/explore-found"})
//	}
//
// Each fuzzing worker says hello once and keeps its session for the
// inputs it runs; an implementation that cannot start fails the target.
func Fuzz(f *testing.F, impl protocol.Implementation, opts explore.Options) {
	f.Helper()
	for _, seed := range Seeds() {
		f.Add(seed)
	}
	var (
		once sync.Once
		sess *explore.Session
		err  error
	)
	f.Cleanup(func() {
		if sess != nil {
			_ = sess.Close()
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		once.Do(func() { sess, err = explore.NewSession(context.Background(), impl, opts) })
		if err != nil {
			t.Fatal(err)
		}
		if msg := Check(sess, data); msg != "" {
			t.Error(msg)
		}
	})
}

// Check runs one input in sess and describes the divergence it shows ("":
// none): its class, the verdict on the input's case shrunk, the input's
// name (its SHA-256, abbreviated) and its vector. An input of a class
// another input already showed in sess is not written again: its message
// names that vector, and running the input alone (go test
// -run=FuzzXxx/ID) shrinks it to the same case and writes its own. Check is
// the body of [Fuzz]'s target, for tests that run it on chosen inputs
// without the fuzzing engine.
func Check(sess *explore.Session, data []byte) string {
	d, err := sess.CheckInput(context.Background(), data)
	if err != nil {
		return err.Error()
	}
	if d == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("divergence " + d.Class + ": " + d.Comparison.Message)
	if d.Fault != "" && d.Comparison.Message == "" {
		b.WriteString(d.Fault)
	}
	fmt.Fprintf(&b, "\ninput: sha256 %s..., shrunk from %d to %d items", d.Input, d.OriginalItems, len(d.Case.Input.Items))
	if d.File != "" {
		b.WriteString("\nvector: " + d.File)
	} else if first := classFile(sess.Report(), d.Class); first != "" {
		b.WriteString("\nvector: not written for this input; " + first + " shows its class from another input (run this input alone to write its own)")
	}
	return b.String()
}

// classFile is the vector written for class in rep ("": none).
func classFile(rep *explore.Report, class string) string {
	for _, d := range rep.Divergences {
		if d.Class == class {
			return d.File
		}
	}
	return ""
}

// Seeds is the seed corpus of [Fuzz]: every vector file of the embedded
// suite, in path order, then eight short inputs for the generator.
func Seeds() [][]byte {
	var out [][]byte
	_ = fs.WalkDir(vectors.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".toml") {
			return err
		}
		data, err := fs.ReadFile(vectors.FS, path)
		if err == nil {
			out = append(out, data)
		}
		return err
	})
	for i := range 8 {
		out = append(out, []byte{byte(i), byte(i * 37), byte(i * 101)})
	}
	return out
}
