//go:build unix

package protocol

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the implementation in its own process group so that
// killing it also kills what a shell wrapper started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
