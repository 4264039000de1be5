// Package atomicfile writes files so that a reader sees the old file or
// the complete new one, never a mix, whatever stops the writer: every
// report and file cupel-conform writes goes through [Write].
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Write writes the file at path through write, so that a reader sees
// the old file or the complete new one, never a mix: into a temporary file
// in the same directory (created, with its parents, as needed), renamed
// over path once written and synced. When write fails, or the runner stops
// before the rename, the old file stays and the temporary file is removed.
// A path that names something other than a regular file (a device such as
// /dev/stdout, a FIFO) is written in place; a symbolic link is followed.
// Every writer of a report, or of a file cupel-conform saves, goes
// through it.
func Write(path string, write func(io.Writer) error) (err error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return writeInPlace(path, write)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	pending.Store(tmp, true)
	defer pending.Delete(tmp)
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeInPlace writes a path that is not a regular file.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// WriteBytes writes b to path with [Write].
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// pending is the set of temporary files being written, for RemovePending.
var pending sync.Map

// RemovePending removes the temporary files of the writes in progress, for
// a program about to exit at once: their old files stay, and no
// temporary file is left behind. Those writes then fail.
func RemovePending() {
	pending.Range(func(path, _ any) bool {
		_ = os.Remove(path.(string))
		return true
	})
}
