package testtool

import (
	"os"
	"os/exec"
	"strings"
)

// T is what Need uses of a test: *testing.T, *testing.B and GinkgoT()
// have it.
type T interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// CI reports whether the tests run under CI=true, where a missing tool is
// a failure rather than a skip.
func CI() bool { return os.Getenv("CI") == "true" }

// Need returns the path of the first of names found on PATH. When none is,
// it fails the test under CI=true and skips it otherwise; both say which
// tool is missing and what for (why, e.g. "the schema check of the JUnit
// report").
func Need(t T, why string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tool := strings.Join(names, " or ")
	if CI() {
		t.Fatalf("%s is not on PATH, and CI=true requires %s to run (.ci/run installs it)", tool, why)
	}
	t.Skipf("%s is not on PATH: skipping %s (install it, or set CI=true to make its absence a failure)", tool, why)
	return ""
}

// Python3 returns the Python interpreter (see [Need]). It asks python3 for
// sys.executable, so that a version manager's shim (pyenv's is a shell
// script that forks several processes) is resolved once rather than at
// every start of a program.
func Python3(t T, why string) string {
	t.Helper()
	path := Need(t, why, "python3")
	out, err := exec.Command(path, "-c", "import sys; print(sys.executable)").Output()
	if exe := strings.TrimSpace(string(out)); err == nil && exe != "" {
		return exe
	}
	return path
}

// Iterations returns full, or underRace when the tests run under the race
// detector, which makes them 5 to 20 times slower. It is for loops that
// check one property over many generated inputs: the race pass checks the
// same property, over fewer inputs, while the plain pass keeps the full
// count. The race pass is for finding data races, which need the code
// paths run concurrently, not many inputs.
func Iterations(full, underRace int) int {
	if Race {
		return underRace
	}
	return full
}
