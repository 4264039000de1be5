package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/cupel-go/go-cupel/internal/bound"
)

// TimeoutMessage is the message of a case that ran out of its timeout.
func TimeoutMessage(timeout time.Duration) string {
	return fmt.Sprintf("no result within %s (the per-case timeout)", timeout)
}

// Call runs req on impl within timeout. A panic becomes a crash [Fault];
// when the timeout expires, the implementation gets its grace period
// ([TimeoutGracer], one second by default) to report the timeout itself,
// with its stderr, and one that ignores ctx is abandoned with a timeout
// Fault. Every front end that runs a case (a run, explore) calls it, and
// gets the result's texts and the fault's cut as [Result.Bounded] and
// [Fault.Bounded] cut them: the first place the runner stores them.
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
		return a.r.Bounded(), g.Bounded()
	}
	if f, ok := a.err.(*Fault); ok {
		return a.r.Bounded(), f.Bounded()
	}
	return a.r.Bounded(), a.err
}

// CallHello asks impl for its identity and returns it as [Identity.Bounded]
// cuts it, with a fault cut as [Fault.Bounded] cuts it. Every front end
// that starts an implementation (a run, its parallel workers, explore)
// calls it.
func CallHello(ctx context.Context, impl Implementation) (Identity, error) {
	info, err := impl.Hello(ctx)
	if f, ok := err.(*Fault); ok {
		err = f.Bounded()
	}
	return info.Bounded(), err
}

// Bounded returns r with its texts cut: the reason and the error's
// message by [bound.Text], the status and the error's kind, names, by
// [bound.Name] (no status or kind the comparison knows is that long, so
// the cut changes no verdict); r itself when none is over its cap. The
// output is left whole, for the comparison: see [Result.Kept].
func (r Result) Bounded() Result {
	r.Status, r.Reason = bound.Name(r.Status), bound.Text(r.Reason)
	if e := r.Error; e != nil {
		if kind, msg := bound.Name(e.Kind), bound.Text(e.Message); kind != e.Kind || msg != e.Message {
			r.Error = &ErrorInfo{Kind: kind, Message: msg}
		}
	}
	return r
}

// Kept is what a report keeps of r once it is judged: r with its texts cut
// (see [Result.Bounded]), and without its output when r, as JSON, is over
// bound.MaxText bytes; cut then says so, and is "" otherwise.
func (r Result) Kept() (kept Result, cut string) {
	r = r.Bounded()
	if r.Output == nil {
		return r, ""
	}
	n := jsonSize(r)
	if n <= bound.MaxText {
		return r, ""
	}
	r.Output = nil
	return r, "the output is not kept: the result is " + strconv.Itoa(n) + " bytes of JSON, over the " + strconv.Itoa(bound.MaxText>>10) + " KiB the runner keeps"
}

// jsonSize is the length of r as a result line's JSON (without its head).
func jsonSize(r Result) int {
	m := ResultMessage{Result: r}
	if b, ok := appendResult(nil, &m); ok {
		return len(b) - len(`"type":"","seq":0,"id":"",`)
	}
	b, _ := json.Marshal(r)
	return len(b)
}

// Bounded returns a copy of f with its message and stderr cut by
// [bound.Text]; f itself when neither is over the cap.
func (f *Fault) Bounded() *Fault {
	if len(f.Message) <= bound.MaxText && len(f.Stderr) <= bound.MaxText {
		return f
	}
	g := *f
	g.Message, g.Stderr = bound.Text(f.Message), bound.Text(f.Stderr)
	return &g
}

// Bounded returns i with every text cut by [bound.Name] (name, version,
// language, homepage and each capability) and every capability list cut
// to bound.MaxList entries, the last of which then says how many were
// cut; i itself when nothing is over a cap.
func (i Identity) Bounded() Identity {
	i.Name, i.Version, i.Language, i.Homepage = bound.Name(i.Name), bound.Name(i.Version), bound.Name(i.Language), bound.Name(i.Homepage)
	c := &i.Capabilities
	for _, l := range []*[]string{&c.Stages, &c.Scorers, &c.Slicers, &c.Placers, &c.Features} {
		*l = bound.List(*l)
	}
	return i
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
