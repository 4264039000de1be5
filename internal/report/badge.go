package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
)

// Badge is a shields.io endpoint badge.
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// NewBadge returns the shields.io endpoint badge of the report: it shows
// the level of the run's [runner.Verdict], green exactly when the level is
// Cupel Conformant or better.
func NewBadge(r *runner.Report) Badge {
	v := r.Verdict()
	b := Badge{SchemaVersion: 1, Label: "cupel " + r.Suite.SpecVersion}
	switch v.Level {
	case runner.LevelFullyConformant:
		b.Message, b.Color = "fully conformant", "brightgreen"
	case runner.LevelConformant:
		b.Message, b.Color = "conformant", "green"
	default:
		pass, total := 0, 0
		for _, c := range r.Cases {
			if c.Tier == casefile.TierRequired && c.SuiteError == nil {
				total++
				if c.Passed() {
					pass++
				}
			}
		}
		b.Message, b.Color = fmt.Sprintf("%d/%d required", pass, total), "red"
		if !v.LevelClaimed {
			b.Message, b.Color = v.LevelText, "lightgrey"
		}
	}
	return b
}

// WriteBadge writes the shields.io endpoint badge JSON.
func WriteBadge(w io.Writer, r *runner.Report) error {
	b, err := json.MarshalIndent(NewBadge(r), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
