package explorefuzz_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/cupel-go/go-cupel/runner/protocol"
)

// served is impl driven over the cupel-conform/1 protocol in process: each
// request and result goes through protocol.Serve as a JSON line, as it would
// to and from a process, without the process.
type served struct {
	impl protocol.Implementation
	mu   sync.Mutex
	w    *io.PipeWriter
	r    *bufio.Reader
}

func (s *served) roundTrip(msg any, into any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := s.w.Write(append(b, '\n')); err != nil {
		return err
	}
	line, err := s.r.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("served: %w", err)
	}
	_, js, err := protocol.ParseLine(line)
	if err != nil {
		return err
	}
	return json.Unmarshal(js, into)
}

func (s *served) Hello(ctx context.Context) (protocol.Identity, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	go func() {
		err := protocol.Serve(context.Background(), s.impl, reqR, respW)
		if err == nil {
			err = io.EOF
		}
		// A request written after Serve ended fails instead of blocking.
		reqR.CloseWithError(err)
		respW.CloseWithError(err)
	}()
	s.w, s.r = reqW, bufio.NewReaderSize(respR, 1<<20)
	var h protocol.HelloResponse
	if err := s.roundTrip(protocol.HelloRequest{Type: protocol.TypeHello, Protocol: []string{protocol.Protocol}}, &h); err != nil {
		return protocol.Identity{}, err
	}
	return h.Info(), nil
}

func (s *served) Run(ctx context.Context, req protocol.Request) (protocol.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m protocol.ResultMessage
	if err := s.roundTrip(protocol.RunMessage{Type: protocol.TypeRun, Request: req}, &m); err != nil {
		return protocol.Result{}, err
	}
	return m.Result, nil
}

func (s *served) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		return nil
	}
	b, _ := json.Marshal(protocol.ByeMessage{Type: protocol.TypeBye})
	_, _ = s.w.Write(append(b, '\n'))
	return s.w.Close()
}
