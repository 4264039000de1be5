package doccheck_test

import (
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/doccheck"
)

// cloneInstall is the README's install of cupel-conform from a clone.
const cloneInstall = "go install ./cmd/cupel-conform\n"

var _ = Describe("the README's install from a clone", func() {
	It("is a block of its own, and installs a cupel-conform that runs", func() {
		md, err := os.ReadFile(filepath.Join(root, "README.md"))
		Expect(err).NotTo(HaveOccurred())
		var found bool
		for _, b := range doccheck.Blocks("README.md", md) {
			found = found || (b.Lang == "sh" && b.Content == cloneInstall)
		}
		Expect(found).To(BeTrue(), "README.md has no ```sh block %q", cloneInstall)

		bin := GinkgoT().TempDir()
		cmd := exec.Command("go", "install", "./cmd/cupel-conform")
		cmd.Dir, cmd.Env = root, append(os.Environ(), "GOBIN="+bin)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		out, err = exec.Command(filepath.Join(bin, "cupel-conform"), "version").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(MatchRegexp(`(?m)^cupel-conform `), "cupel-conform version names itself")
	})
})
