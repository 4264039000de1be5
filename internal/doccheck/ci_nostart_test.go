package doccheck_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the GitHub Actions recipe of docs/ci.md, for an implementation that cannot start", func() {
	It("exits 3, and the job summary names the run and gives the implementation's stderr", func() {
		requirePython()
		var wf githubWorkflow
		readYAML("github.yml", &wf)
		dir, env := sandbox()
		summary := filepath.Join(GinkgoT().TempDir(), "summary")
		env = append(env, "CUPEL_LEVEL=conformant", "CUPEL_IMPL=python3 nonexistent.py", "GITHUB_STEP_SUMMARY="+summary)
		codes := map[string]int{}
		for _, step := range wf.Jobs["conformance"].Steps {
			if step.Run != "" && step.Run != installStep {
				_, codes[step.Name] = shell(dir, env, step.Run, "bash", "-e", "-c")
			}
		}
		Expect(codes).To(HaveKeyWithValue("Run the conformance suite", 3), "no verdict")
		Expect(codes).To(HaveKeyWithValue("Job summary", 0))
		data, err := os.ReadFile(summary)
		Expect(err).NotTo(HaveOccurred())
		md := string(data)
		Expect(md).To(HavePrefix("## Cupel conformance: (unknown)\n"), "no blank name")
		Expect(strings.Count(md, "can't open file")).To(Equal(1), "Python's own message, once:\n%s", md)
	})
})
