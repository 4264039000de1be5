//go:build linux

package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/testtool"
)

// signalBin is the directory of the binaries the signal tests run,
// cupel-conform and the hostile adapter, built by their BeforeAll.
var signalBin string

// stoppable is cupel-conform running against the hostile variant that
// hangs on the third case of the fixtures, ignoring SIGTERM, SIGINT and
// SIGHUP, with a helper in its group.
type stoppable struct {
	cmd    *exec.Cmd
	pids   string
	stderr chan string // the lines of stderr, closed at its end
}

func startStoppable(args ...string) *stoppable {
	GinkgoHelper()
	bin := signalBin
	fixtures, err := filepath.Abs("../../runner/testdata/suite")
	Expect(err).NotTo(HaveOccurred())
	s := &stoppable{pids: GinkgoT().TempDir(), stderr: make(chan string, 1000)}
	s.cmd = exec.Command(filepath.Join(bin, "cupel-conform"), append([]string{"run", "--suite", fixtures,
		"--impl-cmd", filepath.Join(bin, "hostileadapter"), "--timeout", "1h", "--startup-timeout", "1h"}, args...)...)
	s.cmd.Env = append(os.Environ(), "HOSTILE=proc-hang-ignoring-signals", "HOSTILE_AT=3",
		"HOSTILE_SUITE="+fixtures, "HOSTILE_PIDS="+s.pids)
	s.cmd.Stdout = io.Discard
	r, err := s.cmd.StderrPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(s.cmd.Start()).To(Succeed())
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			s.stderr <- sc.Text()
		}
		close(s.stderr)
	}()
	// The event: the adapter hangs on the third case.
	Eventually(func() (map[string]int, error) {
		recs, err := testtool.ReadProcRecords(s.pids)
		return testtool.Roles(recs), err
	}).WithTimeout(time.Hour).Should(HaveKey("hanging"))
	return s
}

// waitLine reads stderr up to a line that contains want, and returns the
// lines read; a stall is left to the test timeout.
func (s *stoppable) waitLine(want string) []string {
	GinkgoHelper()
	var lines []string
	for l := range s.stderr {
		lines = append(lines, l)
		if strings.Contains(l, want) {
			return lines
		}
	}
	Fail("stderr ended without " + want + ":\n" + strings.Join(lines, "\n"))
	return nil
}

// wait waits for the exit, with all of stderr, and checks that no process
// of any group the run started is alive.
func (s *stoppable) wait() (int, string) {
	GinkgoHelper()
	var lines []string
	for l := range s.stderr {
		lines = append(lines, l)
	}
	err := s.cmd.Wait()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	recs, err := testtool.ReadProcRecords(s.pids)
	Expect(err).NotTo(HaveOccurred())
	Expect(testtool.Roles(recs)).To(Equal(map[string]int{"adapter": 1, "helper": 1, "hanging": 1}))
	for _, r := range recs {
		// SIGKILL takes effect when the kernel next runs a process, which
		// may be just after cupel-conform has exited (a second signal does
		// not wait): wait for the event. A helper that was never killed
		// would live on until the suite's timeout.
		Eventually(func() ([]int, error) { return testtool.LiveInGroup(r.PGID) }).WithTimeout(time.Hour).
			Should(BeEmpty(), "the group of %s %d outlived cupel-conform", r.Role, r.PID)
	}
	return code, strings.Join(lines, "\n")
}

var _ = Describe("Stopping cupel-conform with a signal", Ordered, ContinueOnFailure, func() {
	BeforeAll(func() {
		dir, err := os.MkdirTemp("", "cupel-signals")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, dir)
		for name, pkg := range map[string]string{"cupel-conform": "../../cmd/cupel-conform", "hostileadapter": "../hostile/hostileadapter"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		signalBin = dir
	})

	DescribeTable("stops on SIGINT, SIGTERM and SIGHUP alike: implementations killed, every report written marked interrupted, exit 3",
		func(sig syscall.Signal, name string) {
			dir := GinkgoT().TempDir()
			reports := []string{"report.json", "report.xml", "report.tap", "report.md", "badge.json"}
			for _, r := range reports {
				Expect(os.WriteFile(filepath.Join(dir, r), []byte("the previous run's\n"), 0o644)).To(Succeed())
			}
			s := startStoppable("--json", filepath.Join(dir, "report.json"), "--junit", filepath.Join(dir, "report.xml"),
				"--tap", filepath.Join(dir, "report.tap"), "--markdown", filepath.Join(dir, "report.md"), "--badge", filepath.Join(dir, "badge.json"))
			Expect(s.cmd.Process.Signal(sig)).To(Succeed())
			code, stderr := s.wait()
			Expect(code).To(Equal(3), stderr)
			Expect(stderr).To(ContainSubstring("received " + name + ": stopping"))
			why := "interrupted: received " + name
			var rep struct {
				Infrastructure string `json:"infrastructure_error"`
				Cases          []struct {
					Outcome, Message string
				} `json:"cases"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "report.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(json.Unmarshal(b, &rep)).To(Succeed())
			Expect(rep.Infrastructure).To(Equal(why))
			outcomes := map[string]int{}
			for _, c := range rep.Cases {
				outcomes[c.Outcome]++
			}
			Expect(outcomes).To(Equal(map[string]int{"pass": 2, "not-run": 12}), "the case in flight is not run, not a timeout")
			for _, r := range reports[1:4] {
				b, err := os.ReadFile(filepath.Join(dir, r))
				Expect(err).NotTo(HaveOccurred())
				Expect(string(b)).To(ContainSubstring(why), r)
			}
			b, err = os.ReadFile(filepath.Join(dir, "badge.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(b)).NotTo(ContainSubstring("previous"))
			ents, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			Expect(ents).To(HaveLen(len(reports)), "no temporary file left")
		},
		Entry("SIGTERM (timeout, CI cancellation, docker stop)", syscall.SIGTERM, "SIGTERM"),
		Entry("SIGINT (Ctrl-C)", syscall.SIGINT, "SIGINT"),
		Entry("SIGHUP (a closed terminal)", syscall.SIGHUP, "SIGHUP"),
	)

	It("exits at once on a second signal, still killing the implementations", func() {
		dir := GinkgoT().TempDir()
		// Nobody reads the FIFO: after the first signal, writing the JSON
		// report blocks in its open for ever. Only the second signal can end
		// the process.
		fifo := filepath.Join(dir, "report.json")
		Expect(syscall.Mkfifo(fifo, 0o644)).To(Succeed())
		s := startStoppable("--json", fifo)
		Expect(s.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		s.waitLine("received SIGTERM: stopping")
		Expect(s.cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		code, stderr := s.wait()
		Expect(code).To(Equal(3), stderr)
		Expect(stderr).To(ContainSubstring("received SIGTERM again: exiting at once"))
	})
})
