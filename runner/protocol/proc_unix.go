//go:build unix

package protocol

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// setProcessGroup puts the implementation in its own process group so that
// killing it also kills what a shell wrapper started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGKILL to the process group of cmd (the group's id is
// the pid of its leader) and to the leader itself.
func signalGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// waitGroupGone waits until no process of the group of cmd is alive (a
// zombie waiting for its parent to reap it is dead), within groupGoneWait.
func waitGroupGone(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	deadline := time.Now().Add(groupGoneWait)
	for pause := 100 * time.Microsecond; groupAlive(pgid) && time.Now().Before(deadline); pause = min(2*pause, 10*time.Millisecond) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // a member that forked since the first kill
		time.Sleep(pause)
	}
}

// groupAlive reports whether a process of group pgid is alive. kill(-pgid,
// 0) fails with ESRCH once the group is empty; zombies still count for it,
// so where /proc lists processes (Linux) a member that is only a zombie is
// dead.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if g, state, ok := procStat(e.Name()); ok && g == pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// procStat reads the process group and state of /proc/PID/stat: "pid
// (comm) state ppid pgrp ...", where comm may hold spaces and parentheses.
func procStat(pid string) (pgid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(string(f[2]))
	return g, f[0][0], err == nil
}
