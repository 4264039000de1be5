package matrix

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/cupel-go/go-cupel/runner"
)

// Schema is the version of the JSON form WriteJSON writes. Version 2
// holds reports of runner.ReportSchema version 2 and counts the outcomes
// by their report/2 names (docs/vocabulary.md).
const Schema = "cupel-conform/matrix/2"

// schema1 is the first version, which Decode still reads.
const schema1 = "cupel-conform/matrix/1"

// ErrFormat is matched (errors.Is) by Decode's errors: data that is not a
// JSON report or matrix of a known schema.
var ErrFormat = errors.New("not a cupel-conform report or matrix")

// document is the JSON form: every report in full, and the matrix.
type document struct {
	Schema  string        `json:"schema"`
	Reports []namedReport `json:"reports"`
	Matrix  *Matrix       `json:"matrix"`
}

type namedReport struct {
	Name   string         `json:"name"`
	Report *runner.Report `json:"report"`
}

// WriteJSON writes the comparison as indented JSON of schema Schema: the
// report of each implementation under its name, and the matrix (the
// summary of each implementation and the disagreements).
func WriteJSON(w io.Writer, m *Matrix) error {
	doc := document{Schema: Schema, Matrix: m}
	for _, im := range m.Implementations {
		doc.Reports = append(doc.Reports, namedReport{im.Name, im.Report})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Decode reads a JSON report (schema runner.ReportSchema), which gives one
// named report, named after the implementation's hello, or a matrix written by
// WriteJSON, which gives one named report per implementation under the names it
// had. source names the data in errors.
func Decode(data []byte, source string) ([]runner.NamedReport, error) {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: %w: %w", source, ErrFormat, err)
	}
	switch {
	case slices.Contains(runner.ReportSchemas, head.Schema):
		var r runner.Report
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %w: %w", source, ErrFormat, err)
		}
		return []runner.NamedReport{{Name: r.Implementation.Name, Report: &r}}, nil
	case head.Schema == Schema || head.Schema == schema1:
		var doc document
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w: %w", source, ErrFormat, err)
		}
		out := make([]runner.NamedReport, 0, len(doc.Reports))
		for i, nr := range doc.Reports {
			if nr.Report == nil {
				return nil, fmt.Errorf("%s: %w: reports[%d] (%q) has no report", source, ErrFormat, i, nr.Name)
			}
			out = append(out, runner.NamedReport(nr))
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: %w: the matrix holds no report", source, ErrFormat)
		}
		return out, nil
	case head.Schema == "":
		return nil, fmt.Errorf("%s: %w: no \"schema\" field", source, ErrFormat)
	}
	return nil, fmt.Errorf("%s: %w: schema %q, want %q or %q", source, ErrFormat, head.Schema, runner.ReportSchema, Schema)
}
