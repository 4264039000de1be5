package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// Protocol is the name of the protocol between the runner and an
// implementation's process; see PROTOCOL.md.
const Protocol = "cupel-conform/1"

// MaxLine is the longest protocol line accepted, in bytes (16 MiB).
const MaxLine = 16 << 20

// Message types.
const (
	TypeHello  = "hello"
	TypeRun    = "run"
	TypeResult = "result"
	TypeBye    = "bye"
)

// HelloRequest is the runner's hello.
type HelloRequest struct {
	Type     string         `json:"type"`
	Protocol []string       `json:"protocol"`
	Runner   RunnerIdentity `json:"runner"`
	Suite    HelloSuite     `json:"suite"`
}

// HelloSuite identifies the suite in the runner's hello.
type HelloSuite struct {
	SpecVersion string `json:"spec_version"`
	Digest      string `json:"digest"`
}

// HelloResponse is the implementation's hello.
type HelloResponse struct {
	Type           string              `json:"type"`
	Protocol       string              `json:"protocol"`
	Implementation HelloImplementation `json:"implementation"`
	Capabilities   Capabilities        `json:"capabilities"`
	// Suite optionally echoes the suite digest (used by offline results).
	Suite *HelloSuite `json:"suite,omitempty"`
}

// HelloImplementation is the "implementation" object of a hello response:
// the wire form of an Identity without its capabilities.
type HelloImplementation struct {
	Name     string `json:"name"`
	Version  string `json:"version,omitempty"`
	Language string `json:"language,omitempty"`
	Homepage string `json:"homepage,omitempty"`
}

// Info returns the Identity the response describes.
func (h HelloResponse) Info() Identity {
	return Identity{Name: h.Implementation.Name, Version: h.Implementation.Version,
		Language: h.Implementation.Language, Homepage: h.Implementation.Homepage, Capabilities: h.Capabilities}
}

// NewHelloResponse builds the hello response for info.
func NewHelloResponse(info Identity) HelloResponse {
	return HelloResponse{Type: TypeHello, Protocol: Protocol,
		Implementation: HelloImplementation{Name: info.Name, Version: info.Version, Language: info.Language, Homepage: info.Homepage},
		Capabilities:   info.Capabilities}
}

// RunMessage is the runner's request to run one case.
type RunMessage struct {
	Type string `json:"type"`
	Request
}

// ResultMessage is the implementation's answer to a RunMessage.
type ResultMessage struct {
	Type string `json:"type"`
	Seq  int    `json:"seq"`
	ID   string `json:"id"`
	Result
}

// ByeMessage ends a session.
type ByeMessage struct {
	Type string `json:"type"`
}

// envelope reads the type of any message.
type envelope struct {
	Type string `json:"type"`
}

// ErrProtocol is matched by violations of the protocol.
var ErrProtocol = errors.New("protocol error")

// Serve serves impl over the protocol: it reads messages from r and writes
// one line per answer to w until a bye message or the end of r. It is the
// body of `cupel-conform adapter` and of any Go implementation that wants
// to be driven as a process.
func Serve(ctx context.Context, impl Implementation, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	bw := bufio.NewWriter(w)
	send := func(v any) error {
		b, err := encodeLine(v)
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
		return bw.Flush()
	}
	run := func(m RunMessage) error {
		res, err := impl.Run(ctx, m.Request)
		if err != nil {
			res = Result{Kind: ResultError, Error: &ErrorInfo{Kind: "internal", Message: err.Error()}}
		}
		return send(ResultMessage{Type: TypeResult, Seq: m.Seq, ID: m.ID, Result: res})
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		if m, ok := readRun(line); ok {
			if err := run(m); err != nil {
				return err
			}
			continue
		}
		var env envelope
		if err := wirejson.Strict(line, &env); err != nil {
			return fmt.Errorf("%w: invalid JSON line: %v", ErrProtocol, err)
		}
		switch env.Type {
		case TypeHello:
			info, err := impl.Hello(ctx)
			if err != nil {
				return err
			}
			if err := send(NewHelloResponse(info)); err != nil {
				return err
			}
		case TypeRun:
			var m RunMessage
			if err := wirejson.Strict(line, &m); err != nil {
				return fmt.Errorf("%w: invalid run message: %v", ErrProtocol, err)
			}
			if err := run(m); err != nil {
				return err
			}
		case TypeBye:
			return nil
		default:
			return fmt.Errorf("%w: unknown message type %q", ErrProtocol, env.Type)
		}
	}
	return sc.Err()
}

// ParseLine reads one line of a protocol stream or of an offline results
// file: it returns the message's type and the line as JSON to unmarshal
// into the message of that type, with the bare NaN, Infinity and -Infinity
// tokens some encoders write quoted into the protocol's strings.
func ParseLine(line []byte) (typ string, msg []byte, err error) {
	msg = relaxJSON(line)
	var env envelope
	if err := json.Unmarshal(msg, &env); err != nil {
		return "", nil, fmt.Errorf("%w: the line is not JSON: %v", ErrProtocol, err)
	}
	typ, err = topString(msg, "type")
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrProtocol, err)
	}
	return typ, msg, nil
}

// ExactID returns the "id" of a line's object when the line states it
// exactly: once, as a string, without another key equal to "id" under case
// folding. A line refused for another key still names its case so.
func ExactID(line []byte) (string, bool) {
	id, err := topString(line, "id")
	return id, err == nil && id != ""
}

// topString reads the string value of key in the object of the JSON text
// line (valid JSON) by the protocol's reading: "" when the key is absent
// or not a string, an error matching wirejson.ErrKey when it is given
// twice or another key equals it under case folding.
func topString(line []byte, key string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", nil
	}
	val, seen := "", false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", err
		}
		k, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return "", err
		}
		switch {
		case k == key && seen:
			return "", &wirejson.KeyError{Path: "$", Key: k}
		case k == key:
			seen = true
			_ = json.Unmarshal(raw, &val)
		case strings.EqualFold(k, key):
			return "", &wirejson.KeyError{Path: "$", Key: k, Documented: key}
		}
	}
	return val, nil
}
