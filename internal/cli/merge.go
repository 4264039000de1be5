package cli

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/cupel-go/go-cupel/internal/report"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/explore"
)

// shardFlag is --shard I/N of run and explore.
type shardFlag runner.Shard

func (f *shardFlag) String() string { return runner.Shard(*f).String() }

func (f *shardFlag) Set(s string) error {
	sh, err := runner.ParseShard(s)
	if err != nil {
		return err
	}
	*f = shardFlag(sh)
	return nil
}

const shardHelp = "run only shard `I/N` of the cases (I from 1 to N; merge the N reports with \"report merge\")"

// reportMerge is `cupel-conform report merge`: the JSON reports of the
// shards of one run, or of one exploration, merged into the report of the
// unsharded run.
func (e *env) reportMerge(args []string) (int, error) {
	fs := newFlags("report merge", "report merge [--json FILE] SHARD.json...", e)
	jsonOut := fs.String("json", "", "write the merged JSON report to `FILE` (- for stdout)")
	files, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, usagef("report merge needs the JSON reports of the shards (run --shard I/N --json FILE, or explore --shard I/N --json FILE)")
	}
	var runs []*runner.Report
	var explores []*explore.Report
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, usagef("report merge: %v", err)
		}
		var head struct {
			Schema string `json:"schema"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return 0, usagef("report merge: %s is not a JSON report: %v", f, err)
		}
		switch head.Schema {
		case runner.ReportSchema:
			var r runner.Report
			if err := json.Unmarshal(data, &r); err != nil {
				return 0, usagef("report merge: %s: %v", f, err)
			}
			runs = append(runs, &r)
		case explore.ReportSchema:
			var r explore.Report
			if err := json.Unmarshal(data, &r); err != nil {
				return 0, usagef("report merge: %s: %v", f, err)
			}
			explores = append(explores, &r)
		default:
			return 0, usagef("report merge: %s has schema %q (want %s or %s)", f, head.Schema, runner.ReportSchema, explore.ReportSchema)
		}
	}
	if len(runs) > 0 && len(explores) > 0 {
		return 0, usagef("report merge: the reports mix runs and explorations")
	}
	textOut := e.stdout
	if *jsonOut == "-" {
		textOut = e.stderr
	}
	if len(runs) > 0 {
		m, err := runner.MergeReports(runs)
		if err != nil {
			return 0, usagef("report merge: %v", err)
		}
		if err := report.WriteText(textOut, m, report.TextOptions{Summary: true}); err != nil {
			return exitInfrastructure, err
		}
		if *jsonOut != "" {
			if err := writeFile(*jsonOut, e.stdout, m.WriteJSON); err != nil {
				return exitInfrastructure, err
			}
		}
		return verdictCode(m.Err()), nil
	}
	m, err := explore.MergeReports(explores)
	if err != nil {
		return 0, usagef("report merge: %v", err)
	}
	if err := m.WriteText(textOut); err != nil {
		return exitInfrastructure, err
	}
	if len(m.Coverage) > 0 {
		fmt.Fprintln(textOut)
		if err := m.WriteCoverage(textOut); err != nil {
			return exitInfrastructure, err
		}
	}
	if *jsonOut != "" {
		if err := writeFile(*jsonOut, e.stdout, m.WriteJSON); err != nil {
			return exitInfrastructure, err
		}
	}
	return verdictCode(m.Err()), nil
}
