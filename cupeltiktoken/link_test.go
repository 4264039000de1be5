package cupeltiktoken_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("linking", func() {
	// vocabularies builds one of the programs of internal/linkcheck and
	// returns the vocabularies its binary holds, by their init functions.
	vocabularies := func(program string) []string {
		goTool, err := exec.LookPath("go")
		Expect(err).NotTo(HaveOccurred(), "the go command, to build the programs")
		bin := filepath.Join(GinkgoT().TempDir(), program)
		out, err := exec.Command(goTool, "build", "-o", bin, "./internal/linkcheck/"+program).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		out, err = exec.Command(goTool, "tool", "nm", bin).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		var found []string
		for _, v := range []string{"cl100kBase", "o200kBase", "p50kBase", "r50kBase"} {
			if strings.Contains(string(out), "tokenizer/codec."+v+"VocabInit\n") {
				found = append(found, v)
			}
		}
		return found
	}

	It("links only the vocabulary of the encoding chosen, and both for ForModel", func() {
		if testing.Short() {
			Skip("builds three programs")
		}
		Expect(vocabularies("Cl100kBase")).To(Equal([]string{"cl100kBase"}))
		Expect(vocabularies("O200kBase")).To(Equal([]string{"o200kBase"}))
		Expect(vocabularies("ForModel")).To(Equal([]string{"cl100kBase", "o200kBase"}))
	})
})
