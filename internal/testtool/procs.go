//go:build linux

package testtool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProcRecord is a process or an event that a process variant of
// internal/hostile recorded in $HOSTILE_PIDS.
type ProcRecord struct {
	PID, PGID int
	// Role is adapter, helper or escaped for a process, the event's name
	// (hanging) for an event.
	Role string
}

// ReadProcRecords reads the records of the directory $HOSTILE_PIDS named.
func ReadProcRecords(dir string) ([]ProcRecord, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []ProcRecord
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			continue // being written
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var r ProcRecord
		if _, err := fmt.Sscanf(string(b), "%d %d %s\n", &r.PID, &r.PGID, &r.Role); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", e.Name(), b, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Roles counts the records by role.
func Roles(recs []ProcRecord) map[string]int {
	n := map[string]int{}
	for _, r := range recs {
		n[r.Role]++
	}
	return n
}

// LiveInGroup lists the pids of the processes of group pgid that are
// alive (a zombie is dead), from /proc.
func LiveInGroup(pgid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 3 {
			return nil, fmt.Errorf("/proc/%d/stat: %q", pid, b)
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid && f[0] != "Z" && f[0] != "X" {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}
