package atomicfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/atomicfile"
)

var _ = Describe("Write", func() {
	var dir, path string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		path = filepath.Join(dir, "report.json")
		Expect(os.WriteFile(path, []byte("old report\n"), 0o644)).To(Succeed())
	})
	names := func() []string {
		GinkgoHelper()
		ents, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}

	It("shows a reader the old file while the new one is written, then the whole new one", func() {
		half, finish := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- atomicfile.Write(path, func(w io.Writer) error {
				if _, err := io.WriteString(w, "new report, first half\n"); err != nil {
					return err
				}
				close(half)
				<-finish
				_, err := io.WriteString(w, "second half\n")
				return err
			})
		}()
		<-half
		Expect(os.ReadFile(path)).To(Equal([]byte("old report\n")))
		Expect(names()).To(HaveLen(2), "the old file and the temporary one beside it")
		close(finish)
		Expect(<-done).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal([]byte("new report, first half\nsecond half\n")))
		Expect(names()).To(Equal([]string{"report.json"}))
		if runtime.GOOS != "windows" {
			fi, err := os.Stat(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(fi.Mode().Perm()).To(Equal(os.FileMode(0o644)))
		}
	})

	It("keeps the old file and removes the temporary one when the writer fails", func() {
		boom := errors.New("boom")
		err := atomicfile.Write(path, func(w io.Writer) error {
			_, _ = io.WriteString(w, "half a report")
			return boom
		})
		Expect(err).To(MatchError(boom))
		Expect(err.Error()).To(ContainSubstring(path))
		Expect(os.ReadFile(path)).To(Equal([]byte("old report\n")))
		Expect(names()).To(Equal([]string{"report.json"}))
	})

	It("leaves the old file when an exit at once removes the temporary file mid-write", func() {
		half, finish := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- atomicfile.Write(path, func(w io.Writer) error {
				_, _ = io.WriteString(w, "new")
				close(half)
				<-finish
				return nil
			})
		}()
		<-half
		atomicfile.RemovePending() // what a second signal does before it exits
		Expect(names()).To(Equal([]string{"report.json"}))
		close(finish)
		Expect(<-done).NotTo(Succeed())
		Expect(os.ReadFile(path)).To(Equal([]byte("old report\n")))
	})

	It("creates missing directories", func() {
		deep := filepath.Join(dir, "a", "b", "report.md")
		Expect(atomicfile.WriteBytes(deep, []byte("# report\n"))).To(Succeed())
		Expect(os.ReadFile(deep)).To(Equal([]byte("# report\n")))
	})

	It("replaces the file a symbolic link names, not the link", func() {
		if runtime.GOOS == "windows" {
			Skip("symbolic links need privileges on Windows")
		}
		link := filepath.Join(dir, "latest.json")
		Expect(os.Symlink("report.json", link)).To(Succeed())
		Expect(atomicfile.WriteBytes(link, []byte("new\n"))).To(Succeed())
		fi, err := os.Lstat(link)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode() & os.ModeSymlink).NotTo(BeZero())
		Expect(os.ReadFile(path)).To(Equal([]byte("new\n")))
	})

	It("writes in place what is not a regular file (a device)", func() {
		if _, err := os.Stat(os.DevNull); err != nil || runtime.GOOS == "windows" {
			Skip("no " + os.DevNull)
		}
		Expect(atomicfile.WriteBytes(os.DevNull, []byte("discarded\n"))).To(Succeed())
		fi, err := os.Stat(os.DevNull)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode().IsRegular()).To(BeFalse())
	})
})
