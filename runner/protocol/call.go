package protocol

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// TimeoutMessage is the message of a case that ran out of its timeout.
func TimeoutMessage(timeout time.Duration) string {
	return fmt.Sprintf("no result within %s (the per-case timeout)", timeout)
}

// Call runs req on impl within timeout. A panic becomes a crash [Fault];
// when the timeout expires, the implementation gets its grace period
// ([TimeoutGracer], one second by default) to report the timeout itself,
// with its stderr, and one that ignores ctx is abandoned with a timeout
// Fault. Every front end that runs a case (a run, explore) calls it.
func Call(ctx context.Context, impl Implementation, req Request, timeout time.Duration) (Result, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		r   Result
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- answer{err: &Fault{Status: StatusCrash, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}}
			}
		}()
		r, err := impl.Run(cctx, req)
		ch <- answer{r, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-cctx.Done():
		grace := time.Second
		if g, ok := impl.(TimeoutGracer); ok {
			grace = g.TimeoutGrace()
		}
		select {
		case a = <-ch:
		case <-time.After(grace):
			return Result{}, &Fault{Status: StatusTimeout, Message: TimeoutMessage(timeout)}
		}
	}
	// An implementation that reported the timeout itself keeps its fault
	// (and stderr), with the limit stated; the fault is copied, not changed.
	var f *Fault
	if a.err != nil && errors.Is(cctx.Err(), context.DeadlineExceeded) && !errors.Is(a.err, ErrInfrastructure) &&
		errors.As(a.err, &f) && f.Status == StatusTimeout {
		g := *f
		g.Message, g.Err = TimeoutMessage(timeout), nil
		return a.r, &g
	}
	return a.r, a.err
}

// Text renders e for people: "kind: message", or the kind alone; a nil
// e (a rejection without an error object) says so.
func (e *ErrorInfo) Text() string {
	if e == nil {
		return "(no error object)"
	}
	if e.Message == "" {
		return e.Kind
	}
	return e.Kind + ": " + e.Message
}

// Title names the implementation for people: name, version and language.
func (i Identity) Title() string {
	s := i.Name
	if i.Version != "" {
		s += " " + i.Version
	}
	if i.Language != "" {
		s += " (" + i.Language + ")"
	}
	return s
}
