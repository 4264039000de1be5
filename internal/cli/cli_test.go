package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/oracleimpl"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// These specs call the package's functions directly; cmd/cupel-conform's
// testscripts drive the same code through the binary.

// oneCase selects one required case of the embedded suite.
var oneCase = runner.Options{Run: "^required/scoring/recency-basic$"}

// noHello is an implementation that cannot say hello.
type noHello struct{}

func (noHello) Hello(context.Context) (protocol.Identity, error) {
	return protocol.Identity{}, fmt.Errorf("%w: would not start", protocol.ErrInfrastructure)
}

func (noHello) Run(context.Context, protocol.Request) (protocol.Result, error) {
	return protocol.Result{}, errors.New("not reached")
}

var _ = Describe("the exit code", func() {
	run := func(impl protocol.Implementation) *runner.Report {
		GinkgoHelper()
		rep, err := runner.Run(context.Background(), impl, oneCase)
		Expect(err).NotTo(HaveOccurred())
		return rep
	}

	It("is 0 for a run that passed its verdict", func() {
		Expect(ExitCode(run(runner.Engine()))).To(Equal(exitOK))
	})

	It("is 1 for a run whose verdict failed", func() {
		suite, err := casefile.LoadSuite(nil)
		Expect(err).NotTo(HaveOccurred())
		wrong := oracleimpl.New(suite)
		wrong.Mutate = func(_ *casefile.Case, r *protocol.Result) {
			if r.Output != nil && len(r.Output.Scores) > 0 {
				r.Output.Scores[0].Score += 0.5
			}
		}
		rep := run(wrong)
		Expect(rep.Verdict().Passed).To(BeFalse())
		Expect(ExitCode(rep)).To(Equal(exitFail))
	})

	It("is 3 for a run without a verdict", func() {
		Expect(ExitCode(run(noHello{}))).To(Equal(exitInfrastructure))
	})

	It("maps a verdict error: nil, failed, infrastructure", func() {
		Expect(verdictCode(nil)).To(Equal(0))
		Expect(verdictCode(fmt.Errorf("x: %w", runner.ErrFailed))).To(Equal(1))
		Expect(verdictCode(fmt.Errorf("x: %w", protocol.ErrInfrastructure))).To(Equal(3))
	})
})

var _ = Describe("the flags", func() {
	It("split a list flag at commas, dropping empty elements and spaces", func() {
		var l listFlag
		Expect(l.Set("required, optional,,")).To(Succeed())
		Expect(l.Set("pipeline")).To(Succeed())
		Expect([]string(l)).To(Equal([]string{"required", "optional", "pipeline"}))
	})

	It("join repeated patterns into one regular expression matching any of them", func() {
		Expect(patterns{"a,b"}.regexp()).To(Equal("a,b"))
		Expect(patterns{"^x", "y$"}.regexp()).To(Equal("(?:^x)|(?:y$)"))
	})

	parseWith := func(args ...string) (*common, []string, error) {
		var c common
		fs := newFlags("show", "show ID", &env{stderr: &bytes.Buffer{}})
		c.register(fs)
		pos, err := parse(fs, args)
		return &c, pos, err
	}

	It("are read anywhere among the arguments, and -- ends them", func() {
		c, pos, err := parseWith("an-id", "--suite", "dir", "other", "--", "--run")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.suite).To(Equal("dir"))
		Expect(pos).To(Equal([]string{"an-id", "other", "--run"}))
	})

	It("report an unknown flag as a usage error that points to -h", func() {
		_, _, err := parseWith("--bogus")
		var ue usageError
		Expect(errors.As(err, &ue)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("cupel-conform show -h lists the flags"))
	})

	It("print the usage for -h and return flag.ErrHelp", func() {
		var stderr bytes.Buffer
		fs := newFlags("show", "show ID", &env{stderr: &stderr})
		_, err := parse(fs, []string{"-h"})
		Expect(errors.Is(err, flag.ErrHelp)).To(BeTrue())
		Expect(stderr.String()).To(HavePrefix("usage: cupel-conform show ID"))
	})
})

var _ = Describe("Main", func() {
	main := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	It("exits 2 with the usage for no command, an unknown one, or a flag before one", func() {
		for _, args := range [][]string{nil, {"frobnicate"}, {"--suite", "x"}} {
			code, _, stderr := main(args...)
			Expect(code).To(Equal(exitUsage), "%v", args)
			Expect(stderr).To(ContainSubstring("usage: cupel-conform <command>"), "%v", args)
		}
	})

	It("exits 2 for arguments a command does not take", func() {
		code, _, stderr := main("version", "extra")
		Expect(code).To(Equal(exitUsage))
		Expect(stderr).To(ContainSubstring("unexpected arguments: extra"))
	})

	It("prints the versions for version and --version", func() {
		for _, arg := range []string{"version", "--version"} {
			code, stdout, _ := main(arg)
			Expect(code).To(Equal(exitOK))
			Expect(stdout).To(HavePrefix(protocol.Name + " " + protocol.Version + "\nprotocol " + protocol.Protocol + "\nspec " + casefile.SpecVersion + "\n"))
		}
	})
})
