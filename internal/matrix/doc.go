// Package matrix compares conformance reports of several implementations
// side by side: the level and the counts per tier and stage of each, and
// the cases on which they disagree, with who passed each.
//
// [New] builds a [Matrix] from one or more reports (the JSON reports of
// schema "cupel-conform/report/2" (or 1) that cupel-conform run --json writes,
// decoded into runner.Report). [WriteText], [WriteMarkdown], [WriteJSON]
// and [WriteHTML] render it; [Decode] reads a report or a matrix written
// by [WriteJSON] back into entries.
//
// The HTML page is one self-contained file (inline CSS and script, no
// network access, no external assets) that works for one implementation
// as well as for several. It is rendered on the server side: every count,
// level and diff is in the markup, and the script only filters the list
// of cases, so the page reads the same with scripts disabled.
package matrix
