package explore

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// This file runs explore one input at a time, for fuzzing engines (go test
// -fuzz, ClusterFuzzLite, OSS-Fuzz): package runner/explore/explorefuzz wraps it
// in a testing.F target.

// Session runs explore's cases one input at a time: the same
// generator, comparison, shrinking and vector writing as Run, driven
// by a fuzzer's bytes. It is safe for concurrent use (inputs are checked
// one at a time).
type Session struct {
	mu sync.Mutex
	x  *explorer
}

// NewSession says hello to impl and the oracle (go-cupel unless
// opts.Oracle) as Run does; Cases, Duration, Shard and OnProgress are
// not used. The error is a usage error (ErrUsage) or, wrapping
// ErrInfrastructure, a side that would not start. Close ends it.
func NewSession(ctx context.Context, impl protocol.Implementation, opts Options) (*Session, error) {
	opts.Cases, opts.Duration, opts.Shard = 0, 0, runner.Shard{}
	x, err := startExplore(ctx, impl, opts)
	if err != nil {
		return nil, err
	}
	if x.rep.Infrastructure != "" {
		x.close()
		return nil, fmt.Errorf("%w: %s", protocol.ErrInfrastructure, x.rep.Infrastructure)
	}
	return &Session{x: x}, nil
}

// CheckInput decodes data into a case, runs it on both sides and compares
// them. data is a vector file when the loader reads it as one (so the
// suite's vectors, and the fuzzer's mutations of them, make a seed
// corpus); otherwise every choice of explore's generator reads the next
// bytes of data (then a stream seeded by data's hash, when data runs
// out). A divergence is shrunk from this input's case, so that the input
// alone, checked again in a new session (go test -run=FuzzXxx/ID),
// reproduces the divergence reported for it. CheckInput returns that
// divergence, or nil when both sides agree or the case is skipped. The
// first input of each class is written as a vector under Options.Out,
// named after its input (Divergence.Input), and added to the report; an
// input of a class already found only counts in it: its divergence is
// returned, not written (a fuzzer minimizing an input checks many of the
// same class). The error wraps ErrInfrastructure when no verdict can be
// reached, or is an unwritable Out.
func (s *Session) CheckInput(ctx context.Context, data []byte) (*Divergence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.x
	c := x.decodeInput(data)
	d, err := x.runInput(ctx, c, inputName(data))
	if err != nil {
		return d, err
	}
	if x.infra != nil {
		err, x.infra = x.infra, nil
		return nil, fmt.Errorf("%w: %v", protocol.ErrInfrastructure, err)
	}
	return d, nil
}

// Report is the session's report so far: the cases checked and the
// distinct divergences.
func (s *Session) Report() *Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.x.rep
}

// Close ends both sides' sessions (when they have a Close method).
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.x.close()
	return nil
}

// runInput is runCase for a fuzzer's input named name: the divergence
// returned is always this input's case shrunk, and an input checked again
// returns the divergence it returned before.
func (x *explorer) runInput(ctx context.Context, c *casefile.Case, name string) (*Divergence, error) {
	o, diverged := x.checkCounted(ctx, c)
	if !diverged {
		return nil, nil
	}
	if d := x.byInput[name]; d != nil {
		if old := x.byClass[d.Class]; old != nil {
			old.Count++
		}
		return d, nil
	}
	d, class0 := x.shrink(ctx, c, -1, o)
	d.Input = name
	if x.byInput == nil {
		x.byInput = map[string]*Divergence{}
	}
	x.byInput[name] = d
	if x.known(d, class0) != nil {
		return d, nil
	}
	return d, x.record(d)
}

// inputName is Divergence.Input for data.
func inputName(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// decodeInput is CheckInput's case of data.
func (x *explorer) decodeInput(data []byte) *casefile.Case {
	for _, st := range x.caps.stages {
		c, err := casefile.LoadCase(casefile.TierOptional+"/"+st+"/fuzz.toml", data)
		if err == nil {
			c.ID, c.File = "fuzz/"+st, ""
			return c
		}
	}
	h := fnv.New64a()
	h.Write(data)
	c := x.gen.generateFrom(&byteSource{data: data, rest: rand.NewPCG(h.Sum64(), uint64(len(data)))})
	c.ID = "fuzz/" + c.Stage
	return c
}

// byteSource is a rand.Source that reads its numbers from data, 8 bytes a
// number (a short tail padded with zeros), then from rest: a fuzzer that
// changes a byte changes one choice of the generator.
type byteSource struct {
	data []byte
	rest rand.Source
}

func (b *byteSource) Uint64() uint64 {
	if len(b.data) == 0 {
		return b.rest.Uint64()
	}
	var buf [8]byte
	n := copy(buf[:], b.data)
	b.data = b.data[n:]
	return binary.LittleEndian.Uint64(buf[:])
}
