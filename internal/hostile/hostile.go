// Package hostile is a family of deliberately hostile implementation
// processes for the runner's tests: each variant speaks cupel-conform/1
// with correct answers underneath (go-cupel's engine, or the answer key
// of the suite in $HOSTILE_SUITE), then rewrites what it sends, or
// misbehaves as a process, to try to make the runner misread its answers,
// grow its memory without bound, leave processes behind or tear its
// reports. The runner must survive every variant with an honest verdict.
//
// $HOSTILE names the variant (see [Variants]); hostileadapter is the
// program the tests build.
package hostile

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// A Variant is one kind of hostility. Every hook is optional; a nil hook
// sends the honest line unchanged.
type Variant struct {
	// Doc says in one line what the variant does and what the runner
	// must do about it.
	Doc string
	// Start runs once, before the hello is read (process tricks: start
	// a helper process, write to stderr, ...).
	Start func()
	// Hello rewrites the honest hello response line (without its
	// newline) into the lines to send instead.
	Hello func(line []byte) [][]byte
	// Result rewrites the honest result line of the case with sequence
	// number seq (without its newline) into the lines to send instead.
	Result func(seq int, line []byte) [][]byte
}

var variants = map[string]Variant{}

// register adds a variant; each file of the package registers its own in
// an init function.
func register(name string, v Variant) {
	if _, dup := variants[name]; dup {
		panic("hostile: variant " + name + " registered twice")
	}
	variants[name] = v
}

// Variants lists the names of every variant, sorted.
func Variants() []string {
	names := make([]string, 0, len(variants))
	for n := range variants {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Doc is the one-line description of the named variant.
func Doc(name string) string { return variants[name].Doc }

// Main runs the variant named by $HOSTILE on stdin/stdout and returns the
// exit code.
func Main() int {
	name := os.Getenv("HOSTILE")
	v, ok := variants[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "hostile: unknown variant %q (known: %v)\n", name, Variants())
		return 2
	}
	var impl protocol.Implementation = runner.Engine()
	if dir := os.Getenv("HOSTILE_SUITE"); dir != "" {
		suite, err := casefile.LoadSuite(os.DirFS(dir))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		impl = oracleimpl.New(suite)
	}
	if v.Start != nil {
		v.Start()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, protocol.MaxLine)
	out := bufio.NewWriter(os.Stdout)
	send := func(lines [][]byte) {
		for _, l := range lines {
			out.Write(l)
			out.WriteByte('\n')
		}
		out.Flush()
	}
	for in.Scan() {
		var env struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(in.Bytes(), &env); err != nil {
			fmt.Fprintln(os.Stderr, "hostile:", err)
			return 1
		}
		switch env.Type {
		case protocol.TypeHello:
			info, _ := impl.Hello(context.Background())
			line, _ := json.Marshal(protocol.NewHelloResponse(info))
			if v.Hello != nil {
				send(v.Hello(line))
			} else {
				send([][]byte{line})
			}
		case protocol.TypeBye:
			return 0
		case protocol.TypeRun:
			var m protocol.RunMessage
			if err := json.Unmarshal(in.Bytes(), &m); err != nil {
				fmt.Fprintln(os.Stderr, "hostile:", err)
				return 1
			}
			res, _ := impl.Run(context.Background(), m.Request)
			line, _ := json.Marshal(protocol.ResultMessage{Type: "result", Seq: m.Seq, ID: m.ID, Result: res})
			if v.Result != nil {
				send(v.Result(m.Seq, line))
			} else {
				send([][]byte{line})
			}
		}
	}
	return 0
}

func init() {
	register("honest", Variant{Doc: "sends the honest answers unchanged: the baseline every other variant is compared with"})
}
