package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/cupel-go/go-cupel/internal/bound"
	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// ProcessOptions configure a Process.
type ProcessOptions struct {
	// Command is a shell command line (run with sh -c, or cmd /C on
	// Windows). Argv, when set, is run directly instead.
	Command string
	Argv    []string
	// Dir and Env are the working directory and environment (nil: the
	// runner's).
	Dir string
	Env []string
	// ExecPerCase starts one process per case instead of one session.
	ExecPerCase bool
	// Restarts is how many times in a row a session may be restarted
	// without a case completing in between (default 3; negative means
	// none). Past it, the implementation is taken to be in a crash loop and
	// the remaining cases become infrastructure errors. A fault followed by
	// a case that completes resets the count, so isolated faults each cost
	// only their own case.
	Restarts int
	// StartupTimeout bounds the wait for the hello answer (default 30s).
	StartupTimeout time.Duration
	// Grace is how long a process may take to exit after bye (default 2s).
	Grace time.Duration
	// StderrTail is how many bytes of stderr are kept per case (default
	// 8 KiB, at most 63 KiB: a case keeps 64 KiB of a text).
	StderrTail int
	// MaxStderr is how many bytes of stderr one case (or the hello) may
	// produce before it is a fault: a stderr flood (default 16 MiB;
	// negative means no limit). Stderr is drained and discarded beyond the
	// tail either way, so a flood never exhausts the runner's memory.
	MaxStderr int64
	// Suite is sent in the runner's hello.
	Suite HelloSuite
}

// Process is an Implementation run as a separate process that speaks the
// cupel-conform/1 protocol on stdin/stdout: one session for all cases, or
// one process per case. It detects crashes, hangs, invalid lines, wrong
// sequence numbers and over-long lines, restarts the session within the
// restart budget, and drains stderr concurrently, keeping a bounded tail.
type Process struct {
	orig     ProcessOptions // as given, for Fork
	opts     ProcessOptions
	mu       sync.Mutex
	cur      *proc
	restarts int // restarts so far (reported)
	streak   int // restarts since a case last completed (budgeted)
	lastTail string
	lastLine []byte // the result line of the last case, as sent
}

// NewProcess returns a Process; nothing starts before Hello.
func NewProcess(opts ProcessOptions) *Process {
	orig := opts
	if opts.Restarts == 0 {
		opts.Restarts = 3
	}
	if opts.Restarts < 0 {
		opts.Restarts = 0
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = 30 * time.Second
	}
	if opts.Grace <= 0 {
		opts.Grace = 2 * time.Second
	}
	if opts.StderrTail <= 0 {
		opts.StderrTail = 8 << 10
	}
	// Room for the line that says how much of the stderr was omitted.
	opts.StderrTail = min(opts.StderrTail, bound.MaxText-1<<10)
	if opts.MaxStderr == 0 {
		opts.MaxStderr = MaxLine
	}
	return &Process{orig: orig, opts: opts}
}

// Fork implements [Forker]: a new Process with the same options.
func (p *Process) Fork() Implementation { return NewProcess(p.orig) }

// Hello starts the implementation and exchanges hello messages. In
// exec-per-case mode the process is stopped again after the hello.
func (p *Process) Hello(ctx context.Context) (Identity, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, p.opts.StartupTimeout)
	defer cancel()
	pr, info, err := p.start(ctx)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %w", ErrInfrastructure, err)
	}
	if p.opts.ExecPerCase {
		pr.bye(p.opts.Grace)
	} else {
		p.cur = pr
	}
	return info, nil
}

// Run sends one case and waits for its result.
func (p *Process) Run(ctx context.Context, req Request) (Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastLine = nil
	budget := time.Duration(-1)
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl)
	}
	if p.opts.ExecPerCase {
		pr, _, err := p.startWithin(ctx)
		if err != nil {
			var f *Fault
			if errors.As(err, &f) {
				p.lastTail = f.Stderr
				return Result{}, f
			}
			return Result{}, &Fault{Outcome: OutcomeCrash, Message: "process failed to start", Err: err}
		}
		ectx, cancel := afterStart(ctx, budget)
		res, err := p.exchange(ectx, pr, req)
		cancel()
		pr.bye(p.opts.Grace)
		pr.drainStderr()
		p.lastTail = pr.stderr.since(pr.mark)
		if f := (*Fault)(nil); errors.As(err, &f) {
			f.Stderr = p.lastTail
		}
		return res, err
	}
	if p.cur != nil && p.cur.dead() {
		// The session ended between cases: a helper it left in its process
		// group must not outlive it, nor the run.
		p.cur.kill()
		p.cur = nil
	}
	if p.cur == nil {
		if err := p.restart(ctx); err != nil {
			return Result{}, err
		}
		var cancel context.CancelFunc
		ctx, cancel = afterStart(ctx, budget)
		defer cancel()
	}
	pr := p.cur
	res, err := p.exchange(ctx, pr, req)
	if err == nil {
		p.streak = 0
	} else {
		// Stop the process and let the stderr drain catch up, so that the
		// tail holds what the process wrote before the fault.
		pr.kill()
		pr.drainStderr()
		p.cur = nil
	}
	p.lastTail = pr.stderr.since(pr.mark)
	var f *Fault
	if errors.As(err, &f) {
		f.Stderr = p.lastTail
	}
	return res, err
}

// restart replaces a dead session, within the restart budget.
func (p *Process) restart(ctx context.Context) error {
	var last error
	for p.streak < p.opts.Restarts {
		p.streak++
		p.restarts++
		pr, _, err := p.startWithin(ctx)
		if err == nil {
			p.cur = pr
			return nil
		}
		last = err
	}
	msg := fmt.Sprintf("restart budget of %d restarts in a row exhausted", p.opts.Restarts)
	if last != nil {
		msg += ": last restart failed: " + last.Error()
	}
	return &Fault{Outcome: OutcomeNotRun, Message: msg, Err: ErrInfrastructure}
}

// startWithin starts a process within the startup timeout. Starting is not
// the case's work: the case's deadline does not apply to it (its
// cancellation does).
func (p *Process) startWithin(ctx context.Context) (*proc, Identity, error) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.opts.StartupTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			cancel()
		}
	})
	defer stop()
	return p.start(sctx)
}

// afterStart gives the exchange that follows a process start the whole
// budget the case had when Run began, counted from now: starting is not the
// case's work. Cancellation of ctx (other than its deadline) still applies.
func afterStart(ctx context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	if budget < 0 {
		return ctx, func() {}
	}
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), budget)
	stop := context.AfterFunc(ctx, func() {
		if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			cancel()
		}
	})
	return nctx, func() { stop(); cancel() }
}

// TimeoutGrace is how long the runner waits past a case's deadline for
// Run to return: starting a process (exec mode, restarts) may take up to
// the startup timeout besides the case's own time.
func (p *Process) TimeoutGrace() time.Duration { return p.opts.StartupTimeout + 2*time.Second }

// CaseStderr returns the stderr tail of the last case.
func (p *Process) CaseStderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastTail
}

// CaseLine returns the result line of the last case as the process sent
// it, bounded by bound.Line ("" when it sent none).
func (p *Process) CaseLine() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lastLine == nil {
		return ""
	}
	return bound.Line(p.lastLine)
}

// Restarts returns how many restarts the session used.
func (p *Process) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Close ends the session with bye.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil {
		p.cur.bye(p.opts.Grace)
		p.cur = nil
	}
	return nil
}

func (p *Process) start(ctx context.Context) (*proc, Identity, error) {
	var cmd *exec.Cmd
	switch {
	case len(p.opts.Argv) > 0:
		cmd = exec.Command(p.opts.Argv[0], p.opts.Argv[1:]...)
	case runtime.GOOS == "windows":
		cmd = exec.Command("cmd", "/C", p.opts.Command)
	default:
		cmd = exec.Command("/bin/sh", "-c", p.opts.Command)
	}
	cmd.Dir, cmd.Env = p.opts.Dir, p.opts.Env
	pr, err := startProc(cmd, p.opts.StderrTail)
	if pr != nil {
		pr.maxStderr = p.opts.MaxStderr
	}
	if err != nil {
		return nil, Identity{}, &Fault{Outcome: OutcomeCrash, Message: "cannot start implementation", Err: err}
	}
	hello := HelloRequest{Type: TypeHello, Protocol: []string{Protocol},
		Runner: RunnerIdentity{Name: Name, Version: Version}, Suite: p.opts.Suite}
	line, f := pr.roundTrip(ctx, hello, nil)
	if f != nil {
		pr.kill()
		pr.drainStderr()
		f.Stderr = pr.stderr.since(0)
		f.Message = "during hello: " + f.Message
		if f.Outcome == OutcomeTimeout {
			f.Message = fmt.Sprintf("during hello: no hello within the startup timeout of %s", p.opts.StartupTimeout)
		}
		return nil, Identity{}, f
	}
	h, herr := DecodeHello(line)
	if ke := (*wirejson.KeyError)(nil); errors.As(herr, &ke) {
		pr.kill()
		return nil, Identity{}, &Fault{Outcome: OutcomeError, Message: "hello line refused: " + ke.Error(), Stderr: pr.stderr.since(0), Line: bound.Line(pr.sent), Err: ErrProtocol}
	}
	if herr != nil || h.Type != TypeHello {
		pr.kill()
		return nil, Identity{}, &Fault{Outcome: OutcomeError, Message: badHello(line), Stderr: pr.stderr.since(0), Line: bound.Line(pr.sent), Err: ErrProtocol}
	}
	if h.Protocol != Protocol {
		pr.kill()
		return nil, Identity{}, &Fault{Outcome: OutcomeError, Message: fmt.Sprintf("implementation speaks protocol %q, want %q", h.Protocol, Protocol), Err: ErrProtocol}
	}
	return pr, h.Info(), nil
}

// helloExample is a minimal hello line, for the message of a bad one.
const helloExample = `{"type":"hello","protocol":"cupel-conform/1","implementation":{"name":"my-cupel","version":"0.1.0"},"capabilities":{"stages":["scoring"]}}`

// badHello explains a line that is not a hello: what one looks like, and
// when the program only echoed the runner's own hello (cat does), that.
func badHello(line []byte) string {
	var echo HelloRequest
	if json.Unmarshal(line, &echo) == nil && echo.Type == TypeHello && echo.Runner.Name == Name {
		return fmt.Sprintf("expected the implementation's hello line, got the runner's own hello back (does the program echo its input?): answer with one JSON line such as %s (PROTOCOL.md, hello)", helloExample)
	}
	return fmt.Sprintf("expected a hello line, one JSON object such as %s (PROTOCOL.md, hello), got %s", helloExample, preview(line))
}

func (p *Process) exchange(ctx context.Context, pr *proc, req Request) (Result, error) {
	pr.mark = pr.stderr.total()
	var m ResultMessage
	fast := false
	line, f := pr.roundTrip(ctx, RunMessage{Type: TypeRun, Request: req}, func(line []byte) bool {
		if rm, ok := readResult(line); ok {
			m, fast = rm, true
		}
		return fast
	})
	if f != nil {
		return Result{}, f
	}
	p.lastLine = pr.sent
	if !fast {
		var err error
		if m, err = DecodeResult(line); err != nil {
			msg := fmt.Sprintf("invalid result line %s", preview(line))
			if errors.Is(err, wirejson.ErrKey) {
				msg = "result line refused"
			}
			return Result{}, &Fault{Outcome: OutcomeError, Message: msg, Line: bound.Line(pr.sent), Err: err}
		}
	}
	if m.Type != TypeResult {
		return Result{}, &Fault{Outcome: OutcomeError, Message: fmt.Sprintf("expected a result message, got type %q", m.Type), Line: bound.Line(pr.sent), Err: ErrProtocol}
	}
	if m.Seq != req.Seq {
		return Result{}, &Fault{Outcome: OutcomeError, Message: fmt.Sprintf("result has seq %d, want %d", m.Seq, req.Seq), Line: bound.Line(pr.sent), Err: ErrProtocol}
	}
	if m.ID != "" && m.ID != req.ID {
		return Result{}, &Fault{Outcome: OutcomeError, Message: fmt.Sprintf("result has id %q, want %q", m.ID, req.ID), Line: bound.Line(pr.sent), Err: ErrProtocol}
	}
	return m.Result, nil
}

func preview(b []byte) string {
	const n = 120
	if len(b) > n {
		return fmt.Sprintf("%q… (%d bytes)", b[:n], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// proc is one running implementation process.
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	outR    *os.File // the runner's ends of stdout and stderr, closed by kill
	errR    *os.File
	lines   chan lineOrErr
	quit    chan struct{}
	exited  chan struct{}
	waitErr error
	stderr  *tail
	errEOF  chan struct{}
	mark    int64
	// sent is the last line read from stdout, as the process sent it.
	sent []byte
	once sync.Once
	// maxStderr bounds the stderr of one exchange (<= 0: no bound).
	maxStderr int64
}

type lineOrErr struct {
	line []byte
	err  error
}

func startProc(cmd *exec.Cmd, tailSize int) (*proc, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, err
	}
	outW.Close()
	errW.Close()
	pr := &proc{cmd: cmd, stdin: stdin, outR: outR, errR: errR, lines: make(chan lineOrErr), quit: make(chan struct{}),
		exited: make(chan struct{}), stderr: newTail(tailSize), errEOF: make(chan struct{})}
	live.Store(pr, true)
	go func() {
		_, _ = io.Copy(pr.stderr, errR)
		errR.Close()
		close(pr.errEOF)
	}()
	go func() {
		defer outR.Close()
		defer close(pr.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
		for sc.Scan() {
			line := bytes.Clone(sc.Bytes())
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			select {
			case pr.lines <- lineOrErr{line: line}:
			case <-pr.quit:
				return
			}
		}
		err := sc.Err()
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("%w: a line exceeds %d bytes", ErrProtocol, MaxLine)
		}
		if err == nil {
			err = io.EOF
		}
		select {
		case pr.lines <- lineOrErr{err: err}:
		case <-pr.quit:
		}
	}()
	go func() {
		pr.waitErr = cmd.Wait()
		close(pr.exited)
	}()
	return pr, nil
}

func (pr *proc) dead() bool {
	select {
	case <-pr.exited:
		return true
	case <-pr.quit:
		return true
	default:
		return false
	}
}

// roundTrip writes one message and reads the next line. A line that read
// (when not nil) accepts is JSON; others are checked here.
func (pr *proc) roundTrip(ctx context.Context, msg any, read func(line []byte) bool) ([]byte, *Fault) {
	b, err := encodeLine(msg)
	if err != nil {
		return nil, &Fault{Outcome: OutcomeError, Message: "cannot encode request", Err: err}
	}
	b = append(b, '\n')
	wrote := make(chan error, 1)
	go func() {
		_, err := pr.stdin.Write(b)
		wrote <- err
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	exited := pr.exited
	var grace <-chan time.Time
	for {
		select {
		case <-exited:
			// The process exited. What it wrote before is still read, for
			// a short grace; a process it started that holds its output
			// open cannot make a crash wait for the timeout.
			exited = nil
			grace = time.After(exitGrace)
		case <-grace:
			return nil, pr.crashed("process exited without answering (a process it started still holds its output open)", nil)
		case <-tick.C:
			if f := pr.flooded(); f != nil {
				return nil, f
			}
		case err := <-wrote:
			wrote = nil
			if err != nil {
				return nil, pr.crashed("process stopped reading its input", err)
			}
		case l, ok := <-pr.lines:
			if !ok || l.err != nil {
				if ok && !errors.Is(l.err, io.EOF) {
					return nil, &Fault{Outcome: OutcomeError, Message: "cannot read output", Err: l.err}
				}
				return nil, pr.crashed("process closed its output without answering", nil)
			}
			pr.sent = l.line
			l.line = relaxJSON(l.line)
			if read == nil || !read(l.line) {
				var env envelope
				if err := json.Unmarshal(l.line, &env); err != nil {
					return nil, &Fault{Outcome: OutcomeError, Message: "stdout line is not JSON: " + preview(pr.sent), Line: bound.Line(pr.sent), Err: ErrProtocol}
				}
			}
			if f := pr.flooded(); f != nil {
				return nil, f
			}
			return l.line, nil
		case <-ctx.Done():
			pr.kill()
			return nil, &Fault{Outcome: OutcomeTimeout, Message: "no answer in time (" + ctx.Err().Error() + ")"}
		}
	}
}

// flooded reports a stderr flood: more than maxStderr bytes since the mark.
func (pr *proc) flooded() *Fault {
	if pr.maxStderr <= 0 {
		return nil
	}
	if n := pr.stderr.total() - pr.mark; n > pr.maxStderr {
		pr.kill()
		return &Fault{Outcome: OutcomeError, Message: fmt.Sprintf("stderr flood: %d bytes of stderr in one exchange, over the limit of %d", n, pr.maxStderr)}
	}
	return nil
}

// crashed waits briefly for the exit status and describes the crash.
func (pr *proc) crashed(what string, err error) *Fault {
	select {
	case <-pr.exited:
	case <-time.After(time.Second):
		pr.kill()
		<-pr.exited
	}
	pr.drainStderr()
	msg := what
	if pr.waitErr != nil {
		msg += " (" + pr.waitErr.Error() + ")"
	} else {
		msg += " (exit status 0)"
	}
	return &Fault{Outcome: OutcomeCrash, Message: msg, Err: err}
}

// drainStderr waits briefly for the stderr reader to reach the end.
func (pr *proc) drainStderr() {
	select {
	case <-pr.errEOF:
	case <-time.After(200 * time.Millisecond):
	}
}

// bye asks the process to end, and kills it after the grace period.
func (pr *proc) bye(grace time.Duration) {
	b, _ := json.Marshal(ByeMessage{Type: TypeBye})
	done := make(chan struct{})
	go func() {
		_, _ = pr.stdin.Write(append(b, '\n'))
		_ = pr.stdin.Close()
		close(done)
	}()
	select {
	case <-pr.exited:
	case <-time.After(grace):
	}
	pr.kill()
}

// exitGrace is how long the output of a process that exited is still
// read: what it wrote before it exited is on its way, but a process it
// started may hold the pipe open for ever.
const exitGrace = time.Second

// groupGoneWait bounds how long the runner waits for a killed process
// group to die: SIGKILL cannot be caught, but a process in uninterruptible
// sleep dies only when it wakes.
const groupGoneWait = 10 * time.Second

// kill stops the process and its process group with SIGKILL, waits
// (bounded) until no process of the group is alive, and closes the
// runner's ends of the pipes, which a process that left the group may
// still hold open.
func (pr *proc) kill() {
	pr.once.Do(func() {
		close(pr.quit)
		signalGroup(pr.cmd)
		_ = pr.stdin.Close()
		select {
		case <-pr.exited:
		case <-time.After(groupGoneWait):
		}
		waitGroupGone(pr.cmd)
		_ = pr.outR.Close()
		select {
		case <-pr.errEOF:
		case <-time.After(200 * time.Millisecond):
		}
		_ = pr.errR.Close()
		live.Delete(pr)
	})
}

// live is the set of the processes a Process started and has not killed
// yet.
var live sync.Map

// KillProcessGroups sends SIGKILL at once to the process group of every
// implementation process that a [Process] of this program started and has
// not stopped yet, without waiting for them to die. It is for a program
// that must exit now (cupel-conform on a second signal); otherwise
// [Process.Close] stops a session, and every process a Process replaces
// or ends is killed with its group before the call that ended it returns.
func KillProcessGroups() {
	live.Range(func(pr, _ any) bool {
		signalGroup(pr.(*proc).cmd)
		return true
	})
}

// tail keeps the last bytes written to it and counts the total.
type tail struct {
	mu   sync.Mutex
	buf  []byte
	size int
	n    int64
}

func newTail(size int) *tail { return &tail{size: size} }

// Write implements io.Writer.
func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n += int64(len(b))
	if len(b) >= t.size {
		t.buf = append(t.buf[:0], b[len(b)-t.size:]...)
		return len(b), nil
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.size {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.size:]...)
	}
	return len(b), nil
}

func (t *tail) total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// since returns what was written after the mark, bounded by the tail.
func (t *tail) since(mark int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.n - mark
	if n <= 0 {
		return ""
	}
	if n <= int64(len(t.buf)) {
		return string(t.buf[int64(len(t.buf))-n:])
	}
	return fmt.Sprintf("[… %d bytes of stderr omitted …]\n%s", n-int64(len(t.buf)), t.buf)
}
