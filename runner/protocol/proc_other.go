//go:build !unix

package protocol

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

// signalGroup kills the process; without process groups, what it started
// is out of reach.
func signalGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// waitGroupGone has no group to wait for: the process itself is waited
// for by its reaper.
func waitGroupGone(cmd *exec.Cmd) {}
