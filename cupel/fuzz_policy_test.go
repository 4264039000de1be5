package cupel_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/cupel-go/go-cupel/cupel"
)

// FuzzPolicyDecode feeds arbitrary bytes to the policy-file decoders, as JSON
// (ParsePolicyJSON then PolicySpec.Build, and DecodePolicyFile of a ".json"
// file) and as TOML (DecodePolicyFile of a ".toml" file with
// github.com/BurntSushi/toml's Unmarshal), building with a fixed clock, and
// checks:
//
//   - nothing panics;
//   - every decoding or building error wraps ErrInvalidConfig (errors.Is), and
//     DecodePolicyFile's errors are *PolicyFileError values naming the file;
//   - DecodePolicyFile of a ".json" file agrees with ParsePolicyJSON + Build:
//     both fail, or both succeed with the same spec;
//   - a policy that builds gives a pipeline (NewPipeline succeeds), and
//     round-trips: s1 = PolicySpecOf(policy); s1 -> JSON -> ParsePolicyJSON ->
//     Build -> PolicySpecOf gives s1 again, and so does s1 -> TOML ->
//     DecodePolicyFile -> PolicySpecOf.
func FuzzPolicyDecode(f *testing.F) {
	f.Add([]byte(`{"scorers":[{"type":"recency"}],"slicer":"greedy","placer":"chronological"}`))
	f.Add([]byte("placer = \"u-shaped\"\nslicer = \"knapsack\"\n[[scorers]]\ntype = \"reflexive\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fzCheckPolicy(t, data)
	})
}

func fzCheckPolicy(t *testing.T, data []byte) {
	clock := cupel.WithClock(fzClock)

	// JSON through ParsePolicyJSON and Build.
	var viaParse *cupel.PolicySpec
	spec, err := cupel.ParsePolicyJSON(data)
	if err != nil {
		if !errors.Is(err, cupel.ErrInvalidConfig) {
			t.Fatalf("ParsePolicyJSON: %v does not wrap ErrInvalidConfig", err)
		}
	} else if pol, err := spec.Build(clock); err != nil {
		if !errors.Is(err, cupel.ErrInvalidConfig) {
			t.Fatalf("Build: %v does not wrap ErrInvalidConfig", err)
		}
	} else {
		viaParse = &spec
		fzCheckPolicyRoundTrip(t, pol)
	}

	// JSON through DecodePolicyFile: the same outcome.
	pol, fspec, err := cupel.DecodePolicyFile("policy.json", data, nil, clock)
	fzCheckFileError(t, "policy.json", err)
	if (err == nil) != (viaParse != nil) {
		t.Fatalf("DecodePolicyFile(.json) error %v, ParsePolicyJSON+Build ok %v", err, viaParse != nil)
	}
	if err == nil {
		if !reflect.DeepEqual(fspec, *viaParse) {
			t.Fatalf("DecodePolicyFile spec %+v, ParsePolicyJSON spec %+v", fspec, *viaParse)
		}
		fzCheckPolicyRoundTrip(t, pol)
	}

	// TOML through DecodePolicyFile.
	pol, _, err = cupel.DecodePolicyFile("Policy.TOML", data, toml.Unmarshal, clock)
	fzCheckFileError(t, "Policy.TOML", err)
	if err == nil {
		fzCheckPolicyRoundTrip(t, pol)
	}
}

func fzCheckFileError(t *testing.T, name string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if !errors.Is(err, cupel.ErrInvalidConfig) {
		t.Fatalf("DecodePolicyFile(%s): %v does not wrap ErrInvalidConfig", name, err)
	}
	var fe *cupel.PolicyFileError
	if !errors.As(err, &fe) || fe.File != name {
		t.Fatalf("DecodePolicyFile(%s): %v is not a *PolicyFileError naming the file", name, err)
	}
}

func fzCheckPolicyRoundTrip(t *testing.T, pol cupel.Policy) {
	t.Helper()
	if _, err := cupel.NewPipeline(pol); err != nil {
		t.Fatalf("a built policy gives no pipeline: %v", err)
	}
	s1, err := cupel.PolicySpecOf(pol)
	if err != nil {
		t.Fatalf("PolicySpecOf of a built policy: %v", err)
	}
	js, err := json.Marshal(s1)
	if err != nil {
		t.Fatalf("json.Marshal(%+v): %v", s1, err)
	}
	back, err := cupel.ParsePolicyJSON(js)
	if err != nil {
		t.Fatalf("ParsePolicyJSON(%s): %v", js, err)
	}
	pol2, err := back.Build(cupel.WithClock(fzClock))
	if err != nil {
		t.Fatalf("Build(%s): %v", js, err)
	}
	s2, err := cupel.PolicySpecOf(pol2)
	if err != nil {
		t.Fatalf("PolicySpecOf after the JSON round trip: %v", err)
	}
	if !reflect.DeepEqual(s1, s2) {
		t.Fatalf("JSON round trip changed the spec:\n%+v\n%+v\n%s", s1, s2, js)
	}

	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(s1); err != nil {
		t.Fatalf("toml encoding of %+v: %v", s1, err)
	}
	pol3, _, err := cupel.DecodePolicyFile("rt.toml", buf.Bytes(), toml.Unmarshal, cupel.WithClock(fzClock))
	if err != nil {
		t.Fatalf("DecodePolicyFile of the TOML encoding %s: %v", buf.String(), err)
	}
	s3, err := cupel.PolicySpecOf(pol3)
	if err != nil {
		t.Fatalf("PolicySpecOf after the TOML round trip: %v", err)
	}
	if !reflect.DeepEqual(s1, s3) {
		t.Fatalf("TOML round trip changed the spec:\n%+v\n%+v\n%s", s1, s3, buf.String())
	}
}
