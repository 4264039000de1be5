//go:build unix

package hostile

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// The process variants misbehave as processes: they leave helpers behind,
// crash while a helper holds their output, ignore signals or leave their
// process group. The fault hits the case with seq $HOSTILE_AT (default 2).
//
// With $HOSTILE_PIDS set to a directory, every adapter process and every
// helper is recorded there, one file each, holding "PID PGID ROLE" (role
// adapter, helper or escaped): the tests read them to count the processes
// left alive after a run. Events are recorded the same way, the event as
// the role (hanging: the process hangs from now on). The file of a helper is written by the process
// that starts it, before it goes on, so it exists whenever the helper
// may.
func init() {
	register("proc-helper", Variant{
		Doc:   "not an adapter: the helper the other process variants start; sleeps until killed (with $HOSTILE_DEPTH > 0 it first starts another helper, with $HOSTILE_IGNORE_SIGNALS set it ignores SIGTERM, SIGINT and SIGHUP)",
		Start: helperMain,
	})
	register("proc-helpers", Variant{
		Doc:   "starts a chain of two helpers in its process group that ignore SIGTERM, SIGINT and SIGHUP, then answers honestly: the runner must kill the group when the session ends (bye, parallel sessions, exec per case, explore, a signal)",
		Start: func() { recordSelf(); startHelper(helperOpts{depth: 1, ignore: true}) },
	})
	register("proc-exit-after-answer", Variant{
		Doc:    "answers the case honestly, starts a helper in its process group and exits: the runner must kill the group before it starts the next session",
		Start:  recordSelf,
		Result: atCase(func(line []byte) { startHelper(helperOpts{}); sendAndExit(line, 0) }),
	})
	register("proc-crash-holding-stdout", Variant{
		Doc:    "starts a helper that holds its stdout and stderr, then exits 3 without answering: a crash within a short grace, not a timeout, and the helper killed",
		Start:  recordSelf,
		Result: atCase(func([]byte) { startHelper(helperOpts{holdPipes: true}); os.Exit(3) }),
	})
	register("proc-hello-crash-holding-stdout", Variant{
		Doc:   "at the hello, starts a helper that holds its stdout and stderr, then exits 3: a failed start within a short grace, not after the startup timeout",
		Start: recordSelf,
		Hello: func([]byte) [][]byte { startHelper(helperOpts{holdPipes: true}); os.Exit(3); return nil },
	})
	register("proc-hello-hang", Variant{
		Doc:   "starts a helper in its process group and never answers the hello: a run stopped meanwhile is interrupted, not a failed start, and the group killed",
		Start: func() { recordSelf(); startHelper(helperOpts{}) },
		Hello: func([]byte) [][]byte { mark("hanging"); sleepForever(); return nil },
	})
	register("proc-hang-ignoring-signals", Variant{
		Doc: "ignores SIGTERM, SIGINT and SIGHUP, starts a helper that ignores them too, and never answers the case: a timeout, and the group killed with SIGKILL",
		Start: func() {
			signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
			recordSelf()
			startHelper(helperOpts{ignore: true})
		},
		Result: atCase(func([]byte) { mark("hanging"); sleepForever() }),
	})
	register("proc-helper-then-garbage", Variant{
		Doc:    "starts a helper in its process group and answers the case with a line that is not JSON: a protocol error, the group killed before the restart",
		Start:  recordSelf,
		Result: atCaseLines(func([]byte) [][]byte { startHelper(helperOpts{}); return [][]byte{[]byte("not json")} }),
	})
	register("proc-escape-session", Variant{
		Doc: "starts a helper in a new session (setsid: a process group of its own) that holds its stdout and stderr, then exits 3: " +
			"a crash within a short grace, the adapter's own group killed; the escaped helper is out of the runner's reach and survives",
		Start:  recordSelf,
		Result: atCase(func([]byte) { startHelper(helperOpts{holdPipes: true, setsid: true}); os.Exit(3) }),
	})
}

// at is the seq of the case the process variants misbehave on.
func at() int {
	if n, err := strconv.Atoi(os.Getenv("HOSTILE_AT")); err == nil {
		return n
	}
	return 2
}

// atCase runs fault instead of answering the case with seq at(); fault
// does not return.
func atCase(fault func(line []byte)) func(int, []byte) [][]byte {
	return atCaseLines(func(line []byte) [][]byte { fault(line); return nil })
}

// atCaseLines sends what fault returns instead of the answer to the case
// with seq at().
func atCaseLines(fault func(line []byte) [][]byte) func(int, []byte) [][]byte {
	return func(seq int, line []byte) [][]byte {
		if seq == at() {
			return fault(line)
		}
		return [][]byte{line}
	}
}

// sendAndExit writes line to stdout and exits with code.
func sendAndExit(line []byte, code int) {
	_, _ = os.Stdout.Write(append(line, '\n'))
	os.Exit(code)
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// record writes the file "PID" into $HOSTILE_PIDS, atomically.
func record(pid, pgid int, role string) { write(strconv.Itoa(pid), pid, pgid, role) }

// mark records an event of this process: the file "EVENT.PID", whose role
// is the event.
func mark(event string) {
	write(event+"."+strconv.Itoa(os.Getpid()), os.Getpid(), syscall.Getpgrp(), event)
}

func write(name string, pid, pgid int, role string) {
	dir := os.Getenv("HOSTILE_PIDS")
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path+".tmp", fmt.Appendf(nil, "%d %d %s\n", pid, pgid, role), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		return
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
	}
}

func recordSelf() { record(os.Getpid(), syscall.Getpgrp(), "adapter") }

type helperOpts struct {
	depth     int  // helpers the helper starts in turn
	ignore    bool // ignore SIGTERM, SIGINT and SIGHUP
	holdPipes bool // inherit stdout and stderr
	setsid    bool // leave the process group: a new session
}

// startHelper starts this program as the proc-helper variant, records it,
// and waits until the helper is ready (it has started its own helpers):
// the helper writes a byte to its file descriptor 3 then.
func startHelper(o helperOpts) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "HOSTILE=proc-helper", "HOSTILE_DEPTH="+strconv.Itoa(o.depth))
	if o.ignore {
		cmd.Env = append(cmd.Env, "HOSTILE_IGNORE_SIGNALS=1")
	}
	if o.holdPipes {
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	}
	role := "helper"
	if o.setsid {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		role = "escaped"
	}
	ready, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
	w.Close()
	pgid := syscall.Getpgrp()
	if o.setsid {
		pgid = cmd.Process.Pid
	}
	record(cmd.Process.Pid, pgid, role)
	_, _ = ready.Read(make([]byte, 1))
	ready.Close()
}

// helperMain is the proc-helper variant: it never returns.
func helperMain() {
	if os.Getenv("HOSTILE_IGNORE_SIGNALS") != "" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	}
	if d, _ := strconv.Atoi(os.Getenv("HOSTILE_DEPTH")); d > 0 {
		startHelper(helperOpts{depth: d - 1, ignore: os.Getenv("HOSTILE_IGNORE_SIGNALS") != ""})
	}
	if ready := os.NewFile(3, "ready"); ready != nil {
		_, _ = ready.Write([]byte{1})
		ready.Close()
	}
	sleepForever()
}
