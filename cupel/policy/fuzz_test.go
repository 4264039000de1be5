package policy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/policy"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

var fzClock = scorer.ClockFunc(func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) })

// FuzzPolicyDecode feeds arbitrary bytes to Decode as a ".json" and as a
// ".toml" file, builds what decodes with a fixed clock, and checks:
//
//   - nothing panics;
//   - every decoding or building error wraps ErrInvalidConfig (errors.Is),
//     and Decode's errors are *FileError values naming the file;
//   - what Decode accepts builds: Decode checks all Build checks but the
//     clock;
//   - a policy that builds gives a pipeline (NewPipeline succeeds), and
//     round-trips: s1 = Of(policy); s1 -> JSON -> Decode -> Build -> Of
//     gives s1 again, and so does s1 -> TOML -> Decode -> Build -> Of.
func FuzzPolicyDecode(f *testing.F) {
	f.Add([]byte(`{"scorers":[{"type":"recency"}],"slicer":"greedy","placer":"chronological"}`))
	f.Add([]byte("placer = \"u-shaped\"\nslicer = \"knapsack\"\n[[scorers]]\ntype = \"reflexive\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"policy.json", "Policy.TOML"} {
			spec, err := policy.Decode(name, data)
			if err != nil {
				fzCheckFileError(t, name, err)
				continue
			}
			pol, err := spec.Build(policy.WithClock(fzClock))
			if err != nil {
				t.Fatalf("Decode(%s) accepted a spec Build rejects: %v", name, err)
			}
			fzCheckPolicyRoundTrip(t, pol)
		}
	})
}

func fzCheckFileError(t *testing.T, name string, err error) {
	t.Helper()
	if !errors.Is(err, cupel.ErrInvalidConfig) {
		t.Fatalf("Decode(%s): %v does not wrap ErrInvalidConfig", name, err)
	}
	var fe *policy.FileError
	if !errors.As(err, &fe) || fe.File != name {
		t.Fatalf("Decode(%s): %v is not a *FileError naming the file", name, err)
	}
}

// fzRoundTrip decodes the file name with data, builds it and describes
// the policy again.
func fzRoundTrip(t *testing.T, name string, data []byte) policy.Spec {
	t.Helper()
	spec, err := policy.Decode(name, data)
	if err != nil {
		t.Fatalf("Decode(%s) of %s: %v", name, data, err)
	}
	pol, err := spec.Build(policy.WithClock(fzClock))
	if err != nil {
		t.Fatalf("Build(%s): %v", data, err)
	}
	back, err := policy.Of(pol)
	if err != nil {
		t.Fatalf("Of after the round trip through %s: %v", name, err)
	}
	return back
}

func fzCheckPolicyRoundTrip(t *testing.T, pol cupel.Policy) {
	t.Helper()
	if _, err := cupel.NewPipeline(pol); err != nil {
		t.Fatalf("a built policy gives no pipeline: %v", err)
	}
	s1, err := policy.Of(pol)
	if err != nil {
		t.Fatalf("Of of a built policy: %v", err)
	}
	js, err := json.Marshal(s1)
	if err != nil {
		t.Fatalf("json.Marshal(%+v): %v", s1, err)
	}
	if s2 := fzRoundTrip(t, "rt.json", js); !reflect.DeepEqual(s1, s2) {
		t.Fatalf("JSON round trip changed the spec:\n%+v\n%+v\n%s", s1, s2, js)
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(s1); err != nil {
		t.Fatalf("toml encoding of %+v: %v", s1, err)
	}
	if s3 := fzRoundTrip(t, "rt.toml", buf.Bytes()); !reflect.DeepEqual(s1, s3) {
		t.Fatalf("TOML round trip changed the spec:\n%+v\n%+v\n%s", s1, s3, buf.String())
	}
}
