package doccheck_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.yaml.in/yaml/v3"
)

// installStep is the step of each workflow that this tree's cupel-conform
// stands in for.
const installStep = "go install github.com/cupel-go/go-cupel/cmd/cupel-conform@latest"

// pythonExample is the implementation the workflows run against.
const pythonExample = "python3 examples/python-impl/cupel_impl.py"

// readYAML decodes docs/ci/NAME into v.
func readYAML(name string, v any) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "ci", name))
	Expect(err).NotTo(HaveOccurred())
	Expect(yaml.Unmarshal(data, v)).To(Succeed(), name)
}

// expectFiles checks that each path (relative to dir) is a file, or a
// directory holding the reports.
func expectFiles(dir string, paths ...string) {
	for _, p := range paths {
		info, err := os.Stat(filepath.Join(dir, p))
		Expect(err).NotTo(HaveOccurred(), "the workflow uploads %s", p)
		if info.IsDir() {
			for _, f := range []string{"junit.xml", "index.html", "badge.json"} {
				Expect(filepath.Join(dir, p, f)).To(BeARegularFile())
			}
		}
	}
}

type githubWorkflow struct {
	Env  map[string]string
	Jobs map[string]struct {
		Needs any
		Steps []struct {
			Name string
			Uses string
			Run  string
			If   string `yaml:"if"`
			With map[string]string
		}
	}
}

type gitlabJob struct {
	Variables map[string]string
	Script    []string
	Artifacts struct {
		Paths   []string
		Reports struct{ Junit string }
	}
}

var _ = Describe("the CI recipes of docs/ci.md", func() {
	It("GitHub Actions: runs the suite at the target level, uploads the reports and the badge", func() {
		requirePython()
		var wf githubWorkflow
		readYAML("github.yml", &wf)
		Expect(wf.Env).To(HaveKey("CUPEL_IMPL"))
		Expect(wf.Env).To(HaveKeyWithValue("CUPEL_LEVEL", "conformant"))
		job, ok := wf.Jobs["conformance"]
		Expect(ok).To(BeTrue(), "a conformance job")

		dir, env := sandbox()
		for k, v := range wf.Env {
			env = append(env, k+"="+v)
		}
		summary := filepath.Join(GinkgoT().TempDir(), "summary")
		env = append(env, "CUPEL_IMPL="+pythonExample, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_REF=refs/heads/main")

		failed, installs, uploads := false, 0, 0
		codes := map[string]int{}
		for _, step := range job.Steps {
			if failed && !strings.Contains(step.If, "always()") {
				continue
			}
			switch {
			case step.Run == installStep:
				installs++ // cupel-conform is this test binary, on PATH
			case step.Run != "":
				_, code := shell(dir, env, step.Run, "bash", "-e", "-c") // GitHub's shell for run steps
				codes[step.Name] = code
				failed = failed || code != 0
			case strings.HasPrefix(step.Uses, "actions/upload-"):
				expectFiles(dir, step.With["path"])
				uploads++
			}
		}
		Expect(installs).To(Equal(1), "the job installs cupel-conform with go install")
		Expect(uploads).To(Equal(2), "the reports as an artifact, and the page and the badge for Pages")
		Expect(codes).To(HaveKeyWithValue("Run the conformance suite", 1), "the Python example is not Cupel Conformant")
		Expect(codes).To(HaveKeyWithValue("Job summary", 0))
		Expect(os.ReadFile(summary)).To(ContainSubstring("not conformant"))
		badge, err := os.ReadFile(filepath.Join(dir, "cupel-report", "badge.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(badge)).To(ContainSubstring(`"schemaVersion"`))
		Expect(wf.Jobs["publish"].Steps).To(ContainElement(HaveField("Uses", HavePrefix("actions/deploy-pages@"))))
	})

	It("GitLab CI: runs the suite at the target level, keeps the reports and publishes the badge", func() {
		requirePython()
		var jobs map[string]gitlabJob
		readYAML("gitlab-ci.yml", &jobs)
		conf, ok := jobs["cupel-conformance"]
		Expect(ok).To(BeTrue(), "a cupel-conformance job")
		Expect(conf.Script).To(ContainElement(installStep))
		Expect(conf.Artifacts.Reports.Junit).NotTo(BeEmpty())

		dir, env := sandbox()
		for k, v := range conf.Variables {
			env = append(env, k+"="+v)
		}
		env = append(env, "CUPEL_IMPL="+pythonExample)
		var script []string
		for _, line := range conf.Script {
			if line != installStep {
				script = append(script, line)
			}
		}
		_, code := shell(dir, env, strings.Join(script, "\n"), "sh", "-e", "-c")
		Expect(code).To(Equal(1), "the Python example is not Cupel Conformant")
		expectFiles(dir, append(conf.Artifacts.Paths, conf.Artifacts.Reports.Junit)...)

		pages := jobs["pages"]
		_, code = shell(dir, env, strings.Join(pages.Script, "\n"), "sh", "-e", "-c")
		Expect(code).To(Equal(0))
		expectFiles(dir, pages.Artifacts.Paths...)
	})
})
