package doccheck_test

import (
	"flag"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the Markdown blocks from their sources")

// commandEnv set to 1 makes the test binary the cupel-conform command, for
// the sample outputs' scripts.
const commandEnv = "DOCCHECK_CUPEL_CONFORM"

func TestMain(m *testing.M) {
	if os.Getenv(commandEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestDoccheck(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "doccheck")
}
