package doccheck_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/doccheck"
)

// root is the repository root.
var root = func() string {
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return r
}()

// markdownFiles lists the repository's Markdown files, relative to root.
func markdownFiles() []string { return repoFiles(".md") }

// repoFiles lists the repository's files named *suffix outside testdata,
// nested modules included, relative to root.
func repoFiles(suffix string) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), suffix) {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return files
}

// requirePython skips the spec when python3 is missing, and fails it under
// CI=true.
func requirePython() {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			Fail("python3 is required under CI=true: " + err.Error())
		}
		Skip("python3 is not on PATH: " + err.Error())
	}
}

// sandbox returns an empty directory holding the repository's examples/,
// and an environment with cupel-conform (this test binary) first on PATH.
func sandbox() (string, []string) {
	dir := GinkgoT().TempDir()
	bin := GinkgoT().TempDir()
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Symlink(exe, filepath.Join(bin, "cupel-conform"))).To(Succeed())
	Expect(os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "examples"))).To(Succeed())
	env := append(os.Environ(), commandEnv+"=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
	return dir, env
}

// shell runs script with shell (sh -c, bash -e -c, ...) in dir and returns
// its stdout and exit code.
func shell(dir string, env []string, script string, shell ...string) (string, int) {
	cmd := exec.Command(shell[0], append(shell[1:], script)...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	GinkgoWriter.Printf("$ %s\nexit %d, stderr:\n%s\n", script, code, stderr.String())
	return stdout.String(), code
}

// sampleOutput runs script as a README's reader would, from an empty
// directory holding the repository's examples/, with cupel-conform on PATH.
func sampleOutput(script string) (string, int) {
	if strings.Contains(script, "python3") {
		requirePython()
	}
	dir, env := sandbox()
	return shell(dir, env, script, "sh", "-c")
}

var _ = Describe("the Markdown documentation", func() {
	for _, file := range markdownFiles() {
		It("matches its sources: "+file, func() {
			md, err := os.ReadFile(filepath.Join(root, file))
			Expect(err).NotTo(HaveOccurred())
			blocks := doccheck.Blocks(file, md)
			repl := map[int]string{}
			for i, b := range blocks {
				var want string
				fileRef, isFile, err := doccheck.ParseFileMarker(b.Marker)
				Expect(err).NotTo(HaveOccurred(), b.Where())
				switch {
				case isFile:
					want, err = doccheck.Source(root, fileRef)
					Expect(err).NotTo(HaveOccurred(), b.Where())
				case b.Lang == "go":
					ref, err := doccheck.ParseGoMarker(b.Marker)
					Expect(err).NotTo(HaveOccurred(), b.Where())
					want, err = doccheck.Source(root, ref)
					Expect(err).NotTo(HaveOccurred(), b.Where())
				case b.Lang == "" && filepath.Base(file) == "README.md":
					code, err := doccheck.ParseOutputMarker(b.Marker)
					Expect(err).NotTo(HaveOccurred(), b.Where())
					script, err := doccheck.Script(blocks, i)
					Expect(err).NotTo(HaveOccurred())
					var got int
					want, got = sampleOutput(script)
					Expect(got).To(Equal(code), "%s: exit code of\n%s", b.Where(), script)
				default:
					continue
				}
				if *update {
					repl[i] = want
					continue
				}
				Expect(b.Content).To(Equal(want), "%s differs from its source (go test ./internal/doccheck -update rewrites it)", b.Where())
			}
			if *update && len(repl) > 0 {
				Expect(os.WriteFile(filepath.Join(root, file), doccheck.Replace(md, repl, blocks), 0o644)).To(Succeed())
			}
		})
	}
})
