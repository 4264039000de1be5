package policy_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel/policy"
)

// testdata/policies holds a TOML and a JSON policy file for every built-in
// component (the specs of componentSpecs). Run with CUPEL_WRITE_POLICIES=1
// to rewrite them from the specs.
var _ = Describe("policy files on disk", func() {
	for name, spec := range componentSpecs {
		It("loads "+name+".toml and "+name+".json", func() {
			dir := filepath.Join("testdata", "policies")
			if os.Getenv("CUPEL_WRITE_POLICIES") != "" {
				Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
				var buf bytes.Buffer
				Expect(toml.NewEncoder(&buf).Encode(spec)).To(Succeed())
				Expect(os.WriteFile(filepath.Join(dir, name+".toml"), buf.Bytes(), 0o644)).To(Succeed())
				js, err := json.MarshalIndent(spec, "", "  ")
				Expect(err).NotTo(HaveOccurred())
				Expect(os.WriteFile(filepath.Join(dir, name+".json"), append(js, '\n'), 0o644)).To(Succeed())
			}
			for _, ext := range []string{".toml", ".json"} {
				path := filepath.Join(dir, name+ext)
				data, err := os.ReadFile(path)
				Expect(err).NotTo(HaveOccurred())
				got, err := policy.Decode(path, data)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(spec), path)
				pol, err := got.Build(policy.WithClock(fixedClock))
				Expect(err).NotTo(HaveOccurred())
				back, err := policy.Of(pol)
				Expect(err).NotTo(HaveOccurred())
				Expect(back).To(Equal(spec), path)
			}
		})
	}
})
