package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// stopSignals are the signals that stop cupel-conform: Ctrl-C, and what
// timeout(1), CI cancellation, docker stop and a closed terminal send.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalName names a stop signal as people know it.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// signals is how one invocation stops. The first stop signal cancels ctx
// with the cause "received SIG…": a run stops starting cases, the cases in
// flight are not run, every implementation process group is killed, and
// the reports are written marked interrupted; the command then exits 3.
// A second signal kills every implementation process group, removes the
// reports being written (their old files stay) and exits 3 at once.
type signals struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	ch       chan os.Signal
	done     chan struct{}
	received atomic.Bool
	exit     func(int) // os.Exit
}

// trapSignals starts handling the stop signals; stop undoes it.
func trapSignals(stderr io.Writer) *signals {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &signals{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 2), done: make(chan struct{}), exit: os.Exit}
	signal.Notify(s.ch, stopSignals...)
	go s.loop(stderr)
	return s
}

func (s *signals) loop(stderr io.Writer) {
	select {
	case sig := <-s.ch:
		s.received.Store(true)
		name := signalName(sig)
		s.cancel(fmt.Errorf("received %s", name))
		fmt.Fprintf(stderr, "cupel-conform: received %s: stopping (no new case; the implementations are killed, the reports written marked interrupted; exit 3). Send it again to exit at once\n", name)
	case <-s.done:
		return
	}
	select {
	case sig := <-s.ch:
		protocol.KillProcessGroups()
		atomicfile.RemovePending()
		// Say why, unless stderr blocks: the exit must not wait for it.
		said := make(chan struct{})
		go func() {
			fmt.Fprintf(stderr, "cupel-conform: received %s again: exiting at once\n", signalName(sig))
			close(said)
		}()
		select {
		case <-said:
		case <-time.After(100 * time.Millisecond):
		}
		s.exit(exitInfrastructure)
	case <-s.done:
	}
}

// stop ends the handling of signals (the default action applies again).
func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancel(nil)
}
