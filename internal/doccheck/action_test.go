package doccheck_test

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.yaml.in/yaml/v3"
)

// compositeAction is the part of action.yml that GitHub runs.
type compositeAction struct {
	Inputs map[string]struct {
		Required bool
		Default  string
	}
	Runs struct {
		Using string
		Steps []actionStep
	}
}

type actionStep struct {
	Name  string
	If    string `yaml:"if"`
	Shell string
	Run   string
	Uses  string
	Env   map[string]string
	With  map[string]string
}

// actionRun is what running the action's steps left behind.
type actionRun struct {
	dir     string         // the workspace
	codes   map[string]int // exit code of each run step that ran, by name
	uploads []string       // the paths given to actions/upload-artifact
	failed  bool           // whether the job fails
	summary string         // what the steps appended to $GITHUB_STEP_SUMMARY
	path    string         // what the steps appended to $GITHUB_PATH
}

// inputExpr is the only expression action.yml uses: an input's value.
var inputExpr = regexp.MustCompile(`\$\{\{\s*inputs\.([a-z-]+)\s*\}\}`)

// runAction runs the steps of the action in actionPath as GitHub runs a
// composite action's steps: each run step with bash, after a failure only
// the steps marked always(), with the expressions ${{ inputs.NAME }}
// replaced and $GITHUB_PATH applied to the steps that follow. An upload
// step is checked, not run: its path must exist. The workspace is an empty
// directory holding the repository's examples/.
func runAction(actionPath string, with map[string]string) actionRun {
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	Expect(err).NotTo(HaveOccurred())
	var action compositeAction
	Expect(yaml.Unmarshal(data, &action)).To(Succeed())
	Expect(action.Runs.Using).To(Equal("composite"))

	inputs := map[string]string{}
	for name, in := range action.Inputs {
		v, ok := with[name]
		Expect(ok || !in.Required).To(BeTrue(), "the input %s is required", name)
		if !ok {
			v = in.Default
		}
		inputs[name] = v
	}
	for name := range with {
		Expect(action.Inputs).To(HaveKey(name), "the action has no input %s", name)
	}
	expand := func(s string) string {
		out := inputExpr.ReplaceAllStringFunc(s, func(m string) string {
			name := inputExpr.FindStringSubmatch(m)[1]
			Expect(inputs).To(HaveKey(name), "%s names no input", m)
			return inputs[name]
		})
		Expect(out).NotTo(ContainSubstring("${{"), "an expression the test does not evaluate: %s", s)
		return out
	}

	run := actionRun{dir: GinkgoT().TempDir(), codes: map[string]int{}}
	Expect(os.Symlink(filepath.Join(root, "examples"), filepath.Join(run.dir, "examples"))).To(Succeed())
	tmp := GinkgoT().TempDir()
	summaryFile, pathFile := filepath.Join(tmp, "step_summary"), filepath.Join(tmp, "path")
	Expect(os.WriteFile(summaryFile, nil, 0o644)).To(Succeed())
	Expect(os.WriteFile(pathFile, nil, 0o644)).To(Succeed())
	runnerTemp := GinkgoT().TempDir()
	pathVar := os.Getenv("PATH")

	for _, step := range action.Runs.Steps {
		if run.failed && !strings.Contains(step.If, "always()") {
			continue
		}
		switch {
		case step.Run != "":
			Expect(step.Shell).To(Equal("bash"), "a composite step names its shell")
			env := append(os.Environ(), "NO_COLOR=1", "GITHUB_ACTION_PATH="+actionPath, "RUNNER_TEMP="+runnerTemp,
				"GITHUB_STEP_SUMMARY="+summaryFile, "GITHUB_PATH="+pathFile, "PATH="+pathVar)
			for _, k := range slices.Sorted(maps.Keys(step.Env)) {
				env = append(env, k+"="+expand(step.Env[k]))
			}
			_, code := shell(run.dir, env, expand(step.Run), "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c")
			run.codes[step.Name] = code
			run.failed = run.failed || code != 0
			added, err := os.ReadFile(pathFile)
			Expect(err).NotTo(HaveOccurred())
			for _, p := range strings.Fields(string(added)) {
				if !strings.Contains(pathVar, p) {
					pathVar = p + string(os.PathListSeparator) + pathVar
				}
			}
		case strings.HasPrefix(step.Uses, "actions/upload-artifact@"):
			Expect(step.Uses).To(MatchRegexp(`@v\d+$`), "pinned by major version")
			p := expand(step.With["path"])
			Expect(filepath.Join(run.dir, p)).To(BeADirectory(), "the action uploads %s", p)
			Expect(expand(step.With["name"])).NotTo(BeEmpty())
			run.uploads = append(run.uploads, p)
		default:
			Fail("a step the test does not run: " + step.Name)
		}
	}
	summary, err := os.ReadFile(summaryFile)
	Expect(err).NotTo(HaveOccurred())
	added, err := os.ReadFile(pathFile)
	Expect(err).NotTo(HaveOccurred())
	run.summary, run.path = string(summary), string(added)
	return run
}

// copyAction returns a directory holding only docs/ci/action.sh of the
// repository: an action checkout where go install finds no module.
func copyAction() string {
	dir := GinkgoT().TempDir()
	script, err := os.ReadFile(filepath.Join(root, "docs", "ci", "action.sh"))
	Expect(err).NotTo(HaveOccurred())
	Expect(os.MkdirAll(filepath.Join(dir, "docs", "ci"), 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "docs", "ci", "action.sh"), script, 0o755)).To(Succeed())
	return dir
}

// exampleWith returns the inputs of the action in docs/ci/github-action.yml.
func exampleWith() map[string]string {
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string
				With map[string]string
			}
		}
	}
	readYAML("github-action.yml", &wf)
	for _, step := range wf.Jobs["conformance"].Steps {
		if strings.HasPrefix(step.Uses, "cupel-go/go-cupel@") {
			return step.With
		}
	}
	Fail("docs/ci/github-action.yml does not use the action")
	return nil
}

var _ = Describe("the GitHub Action (action.yml)", func() {
	reports := []string{"junit.xml", "index.html", "report.json", "summary.md"}

	It("has the inputs and defaults docs/ci.md lists", func() {
		data, err := os.ReadFile(filepath.Join(root, "action.yml"))
		Expect(err).NotTo(HaveOccurred())
		var action compositeAction
		Expect(yaml.Unmarshal(data, &action)).To(Succeed())
		md, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
		Expect(err).NotTo(HaveOccurred())
		section := string(md)[strings.Index(string(md), "## The GitHub Action"):]
		rows := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([^|]*) \\|").FindAllStringSubmatch(section, -1)
		listed := map[string]string{}
		for _, r := range rows {
			listed[r[1]] = strings.TrimSpace(r[2])
		}
		Expect(listed).To(HaveLen(len(action.Inputs)))
		for name, in := range action.Inputs {
			Expect(listed).To(HaveKey(name))
			switch {
			case in.Required:
				Expect(listed[name]).To(Equal("(required)"), name)
			case strings.HasPrefix(listed[name], "`"):
				Expect(listed[name]).To(Equal("`"+in.Default+"`"), name)
			default:
				Expect(in.Default).To(BeEmpty(), "%s: the table gives no value", name)
			}
		}
	})

	It("installs cupel-conform from its own checkout and passes when the level is kept", func() {
		with := exampleWith()
		Expect(with).To(HaveKeyWithValue("require-level", "conformant"))
		with["impl-cmd"] = "cupel-conform adapter" // on PATH once the action installed it
		with["require-level"] = "fully-conformant"
		run := runAction(root, with)
		Expect(run.codes).To(Equal(map[string]int{"Install cupel-conform": 0, "Run the conformance suite": 0, "Job summary": 0}))
		Expect(run.failed).To(BeFalse())
		Expect(run.path).To(HaveSuffix("cupel-conform-bin\n"), "the install adds cupel-conform to PATH")
		Expect(run.uploads).To(Equal([]string{"cupel-report"}))
		for _, f := range reports {
			Expect(filepath.Join(run.dir, "cupel-report", f)).To(BeARegularFile())
		}
		Expect(run.summary).To(HavePrefix("## Cupel conformance: go-cupel\n"))
		Expect(run.summary).To(ContainSubstring("**Cupel Fully Conformant**"))
	})

	It("fails the job when the verdict fails, and keeps the reports and the summary", func() {
		requirePython()
		with := exampleWith()
		with["impl-cmd"] = pythonExample
		with["report-dir"] = "out/cupel"
		run := runAction(root, with)
		Expect(run.codes).To(Equal(map[string]int{"Install cupel-conform": 0, "Run the conformance suite": 1, "Job summary": 0}),
			"the Python example is not Cupel Conformant")
		Expect(run.failed).To(BeTrue())
		Expect(run.uploads).To(Equal([]string{"out/cupel"}))
		for _, f := range reports {
			Expect(filepath.Join(run.dir, "out", "cupel", f)).To(BeARegularFile())
		}
		Expect(run.summary).To(HavePrefix("## Cupel conformance: cupel-python-example\n"))
		Expect(run.summary).To(ContainSubstring("**not conformant**"))
	})

	It("says in the job summary why nothing ran when the install fails", func() {
		run := runAction(copyAction(), map[string]string{"impl-cmd": pythonExample})
		Expect(run.codes).To(HaveKeyWithValue("Install cupel-conform", Not(BeZero())))
		Expect(run.codes).NotTo(HaveKey("Run the conformance suite"), "skipped after the failed install")
		Expect(run.codes).To(HaveKeyWithValue("Job summary", 0))
		Expect(run.failed).To(BeTrue())
		Expect(run.path).To(BeEmpty())
		Expect(run.summary).To(HavePrefix("## Cupel conformance: not run\n"))
		Expect(run.summary).To(ContainSubstring("cupel-conform could not be installed"))
		Expect(run.summary).To(MatchRegexp("(?s)```text\n.*go\\.mod.*```"), "go's own message")
		Expect(run.uploads).To(Equal([]string{"cupel-report"}))
		Expect(filepath.Join(run.dir, "cupel-report", "install.log")).To(BeARegularFile())
	})
})
