package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cupel-go/go-cupel/internal/safetext"
	"github.com/cupel-go/go-cupel/internal/wirejson"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// smoke checks an adapter's framing: hello, one case per stage over one
// session, and bye; it judges the framing, not the answers.
func (e *env) smoke(args []string) (int, error) {
	fs := newFlags("smoke", "smoke --impl-cmd CMD [flags]", e)
	var c common
	fs.StringVar(&c.suite, "suite", "", "take the cases from `DIR`")
	implCmd := fs.String("impl-cmd", "", "the implementation `CMD` to check")
	timeout := fs.Duration("timeout", 10*time.Second, "per-case timeout")
	startup := fs.Duration("startup-timeout", 30*time.Second, "timeout for the hello")
	if err := parseNoArgs(fs, args); err != nil {
		return 0, err
	}
	if *implCmd == "" {
		return 0, usagef("smoke needs --impl-cmd")
	}
	suite, _, err := c.load()
	if err != nil {
		return 0, err
	}
	p := protocol.NewProcess(protocol.ProcessOptions{Command: *implCmd, Restarts: -1, StartupTimeout: *startup,
		Suite: protocol.HelloSuite{SpecVersion: suite.SpecVersion, Digest: suite.Digest}})
	defer p.Close()
	ctx, cancel := context.WithTimeout(e.ctx, *startup)
	info, err := protocol.CallHello(ctx, p)
	cancel()
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL hello: %s\n", safetext.Lines(err.Error(), "  "))
		e.keyHint(err)
		var f *protocol.Fault
		if errors.As(err, &f) && f.Stderr != "" {
			fmt.Fprintf(e.stdout, "stderr:\n%s\n", safetext.Block(f.Stderr, "  | "))
		}
		return exitInfrastructure, nil
	}
	fmt.Fprintf(e.stdout, "ok   hello: %s, protocol %s\n", safetext.Line(info.Name+" "+info.Version+" ("+info.Language+")"), protocol.Protocol)
	seq := 0
	for _, stage := range casefile.Stages {
		var cs *casefile.Case
		for _, x := range suite.Cases {
			if x.Stage == stage && (cs == nil || (x.Tier == casefile.TierRequired && cs.Tier != casefile.TierRequired)) {
				cs = x
			}
		}
		if cs == nil {
			continue
		}
		seq++
		ctx, cancel := context.WithTimeout(e.ctx, *timeout)
		res, err := p.Run(ctx, protocol.NewRequest(seq, cs))
		cancel()
		if err != nil {
			fmt.Fprintf(e.stdout, "FAIL run %s (seq %d): %s\n", cs.ID, seq, safetext.Lines(err.Error(), "  "))
			e.keyHint(err)
			if s := p.CaseStderr(); s != "" {
				fmt.Fprintf(e.stdout, "stderr:\n%s\n", safetext.Block(s, "  | "))
			}
			return exitInfrastructure, nil
		}
		switch res.Kind {
		case protocol.ResultOK, protocol.ResultRejected, protocol.ResultUnsupported, protocol.ResultError:
		default:
			fmt.Fprintf(e.stdout, "FAIL run %s: answer %q is not ok, rejected, unsupported or error\n", cs.ID, res.Kind)
			return exitInfrastructure, nil
		}
		v := runner.Compare(cs, res)
		fmt.Fprintf(e.stdout, "ok   run %s (seq %d): framing ok, answered %s, outcome %s\n", cs.ID, seq, res.Kind, v.Outcome)
	}
	fmt.Fprintf(e.stdout, "ok   bye\n")
	return 0, nil
}

// keyHint explains a line refused for its keys to the adapter's author:
// what their serializer did, the line as sent (quoted, cut), and the rule.
func (e *env) keyHint(err error) {
	var ke *wirejson.KeyError
	if !errors.As(err, &ke) {
		return
	}
	if ke.Documented != "" {
		fmt.Fprintf(e.stdout, "hint: the runner reads keys byte for byte: your serializer writes %q for %q (a field name's case, a naming policy?); write the key exactly as PROTOCOL.md documents it\n", ke.Key, ke.Documented)
	} else {
		fmt.Fprintf(e.stdout, "hint: the runner refuses a key given twice in one object: write each key once (PROTOCOL.md, Reading a line)\n")
	}
	var f *protocol.Fault
	if errors.As(err, &f) && f.Line != "" {
		line := f.Line
		if len(line) > 300 {
			line = line[:300]
		}
		fmt.Fprintf(e.stdout, "line sent: %q\n", line)
	}
}
