// Package faultyimpl is a deliberately faulty fake implementation, a
// process, for the runner's tests. Main speaks cupel-conform/1 with the oracle's answers
// for the suite in $FAULT_SUITE (or with go-cupel's engine when it is
// unset) and injects the fault named by $FAULT at the
// case with seq $FAULT_AT (default 2): crash, hang, garbage, seq, stderr
// (50 MB of stderr, then a correct answer), stderrcrash (50 MB, then
// exit), longline (a 17 MiB line), or
// start (dies before the hello), startat (dies before the hello of its
// $FAULT_AT-th start, counted in the file $FAULT_COUNTER), hellohang (never answers the hello) or
// hellogarbage (prints a banner on stdout before the hello).
// $FAULT_SLOW_START (a duration) delays every start.
package faultyimpl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// Main runs the adapter on stdin/stdout and returns the exit code.
func Main() int {
	fault := os.Getenv("FAULT")
	at, _ := strconv.Atoi(os.Getenv("FAULT_AT"))
	if at == 0 {
		at = 2
	}
	if d, err := time.ParseDuration(os.Getenv("FAULT_SLOW_START")); err == nil {
		time.Sleep(d) // a slow runtime to start, on every start
	}
	if fault == "start" {
		fmt.Fprintln(os.Stderr, "faultyimpl: cannot start")
		os.Exit(7)
	}
	if fault == "startat" {
		// Count the starts in $FAULT_COUNTER and die before the hello of
		// start number $FAULT_AT.
		n := 1
		if b, err := os.ReadFile(os.Getenv("FAULT_COUNTER")); err == nil {
			n, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			n++
		}
		_ = os.WriteFile(os.Getenv("FAULT_COUNTER"), []byte(strconv.Itoa(n)), 0o644)
		if n == at {
			fmt.Fprintf(os.Stderr, "faultyimpl: cannot start (start %d)\n", n)
			os.Exit(7)
		}
	}
	var o protocol.Implementation = runner.Engine()
	if dir := os.Getenv("FAULT_SUITE"); dir != "" {
		suite, err := casefile.LoadSuite(os.DirFS(dir))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		o = oracleimpl.New(suite)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, protocol.MaxLine)
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	for in.Scan() {
		var env struct {
			Type string `json:"type"`
		}
		json.Unmarshal(in.Bytes(), &env)
		switch env.Type {
		case "hello":
			switch fault {
			case "hellohang":
				fmt.Fprintln(os.Stderr, "faultyimpl: hanging at hello")
				time.Sleep(time.Hour)
			case "hellogarbage":
				fmt.Fprintln(out, "Starting adapter v1.0...")
				out.Flush()
			}
			info, _ := o.Hello(context.Background())
			send(protocol.NewHelloResponse(info))
		case "bye":
			return 0
		case "run":
			var m protocol.RunMessage
			if err := json.Unmarshal(in.Bytes(), &m); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			res, _ := o.Run(context.Background(), m.Request)
			seq := m.Seq
			if m.Seq == at {
				fmt.Fprintf(os.Stderr, "faultyimpl: injecting %s at seq %d\n", fault, m.Seq)
				switch fault {
				case "crash":
					os.Exit(2)
				case "hang":
					time.Sleep(time.Hour)
				case "garbage":
					fmt.Fprintln(out, "this is not json")
					out.Flush()
					continue
				case "seq":
					seq += 100
				case "stderr", "stderrcrash":
					chunk := strings.Repeat("x", 1<<20-1) + "\n"
					for i := 0; i < 50; i++ {
						os.Stderr.WriteString(chunk)
					}
					if fault == "stderrcrash" {
						os.Stderr.WriteString("last words\n")
						os.Exit(3)
					}
				case "longline":
					out.WriteString(`{"type":"result","pad":"` + strings.Repeat("y", 17<<20) + "\"}\n")
					out.Flush()
					continue
				}
			}
			send(protocol.ResultMessage{Type: "result", Seq: seq, ID: m.ID, Result: res})
		}
	}
	return 0
}
