package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

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

// mergeUsage is the synopsis of report merge.
const mergeUsage = `report merge [flags] SHARD.json…

Merges the JSON reports of the N shards of one run (run --shard I/N --json
FILE) into the report of the unsharded run, and reports it as run does,
with the same report flags: the level, the verdict and the exit code are
the unsharded run's. A shard runs without a target level; give it here
(--require-level). The JSON reports of the shards of one exploration
(explore --shard I/N --json FILE) merge into the report of the whole
exploration (text, and --json).`

// reportMerge is `cupel-conform report merge`: the JSON reports of the
// shards of one run, or of one exploration, merged into the report of the
// unsharded run, and rendered as run renders a report.
func (e *env) reportMerge(args []string) (int, error) {
	fs := newFlags("report merge", mergeUsage, e)
	var o outputs
	o.register(fs)
	require := fs.String("require-level", "", requireLevelHelp)
	suiteDir := fs.String("suite", "", "show the inputs of failing cases from the vectors of `DIR` (default: the embedded suite, when the shards ran it)")
	files, err := parse(fs, args)
	if err != nil {
		return 0, err
	}
	if err := o.check(); err != nil {
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
			return 0, usagef("%v", err)
		}
		var head struct {
			Schema string `json:"schema"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return 0, usagef("%s is not a JSON report: %v", f, err)
		}
		switch {
		case slices.Contains(runner.ReportSchemas, head.Schema):
			var r runner.Report
			if err := json.Unmarshal(data, &r); err != nil {
				return 0, usagef("%s: %v", f, err)
			}
			runs = append(runs, &r)
		case slices.Contains(explore.ReportSchemas, head.Schema):
			var r explore.Report
			if err := json.Unmarshal(data, &r); err != nil {
				return 0, usagef("%s: %v", f, err)
			}
			explores = append(explores, &r)
		default:
			return 0, usagef("%s has schema %q (want %s or %s)", f, head.Schema, runner.ReportSchema, explore.ReportSchema)
		}
	}
	if len(runs) > 0 && len(explores) > 0 {
		return 0, usagef("the reports mix runs and explorations")
	}
	if len(runs) > 0 {
		return e.mergeRuns(runs, o, *require, *suiteDir)
	}
	return e.mergeExplorations(explores, o, *require)
}

// mergeRuns merges the shards of a run and emits the merged report as run
// emits a report; its verdict is the report's (runner.Report.Verdict).
func (e *env) mergeRuns(runs []*runner.Report, o outputs, require, suiteDir string) (int, error) {
	m, err := runner.MergeReports(runs)
	if err != nil {
		return 0, usagef("%v", err)
	}
	if require != "" {
		lvl, err := runner.ParseLevel(require)
		if err != nil {
			return 0, err
		}
		if err := m.Require(lvl); err != nil {
			return 0, usagef("--require-level: the shards ran with --run, --skip, --tier or --stage, and a filtered run claims no level")
		}
	}
	c := common{suite: suiteDir}
	suite, _, err := c.load()
	if err != nil {
		return 0, err
	}
	if suite.Digest != m.Suite.Digest {
		if suiteDir != "" {
			return 0, usagef("--suite %s is suite %s, but the shards ran suite %s", suiteDir, suite.Digest, m.Suite.Digest)
		}
		suite = nil // the shards ran another suite: no inputs to show
	}
	if err := e.emit(m, suite, o); err != nil {
		return exitInfrastructure, err
	}
	return ExitCode(m), nil
}

// mergeExplorations merges the shards of an exploration: its text, and
// --json.
func (e *env) mergeExplorations(explores []*explore.Report, o outputs, require string) (int, error) {
	if require != "" {
		return 0, usagef("--require-level is for the shards of a run: an exploration claims no level")
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"--junit", o.junit != ""}, {"--tap", o.tap != ""}, {"--markdown", o.markdown != ""}, {"--badge", o.badge != ""},
		{"--html", o.html != ""}, {"--save-failed", o.saveFailed != ""}, {"--test2json", o.test2json}} {
		if f.set {
			return 0, usagef("%s is for the shards of a run: an exploration's merged report is its text and --json", f.name)
		}
	}
	textOut := e.stdout
	if o.json == "-" {
		textOut = e.stderr
	}
	m, err := explore.MergeReports(explores)
	if err != nil {
		return 0, usagef("%v", err)
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
	if o.json != "" {
		if err := writeFile(o.json, e.stdout, m.WriteJSON); err != nil {
			return exitInfrastructure, err
		}
	}
	return verdictCode(m.Err()), nil
}
