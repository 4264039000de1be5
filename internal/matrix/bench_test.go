package matrix_test

import (
	"io"
	"testing"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/runner"
)

// BenchmarkWriteHTML renders the page of 1,000 cases and three
// implementations (17 failing cases with inputs and diffs).
func BenchmarkWriteHTML(b *testing.B) {
	m, _ := synthetic(1000)
	b.ReportAllocs()
	for b.Loop() {
		if err := matrix.WriteHTML(io.Discard, m, matrix.HTMLOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNew builds the matrix of 1,000 cases and three implementations.
func BenchmarkNew(b *testing.B) {
	m, _ := synthetic(1000)
	entries := make([]runner.NamedReport, len(m.Implementations))
	for i, im := range m.Implementations {
		entries[i] = runner.NamedReport{Name: im.Name, Report: im.Report}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := matrix.New(entries, matrix.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
