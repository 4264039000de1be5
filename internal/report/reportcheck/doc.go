// Package reportcheck reads the reports cupel-conform writes as their
// consumers do, for the tests: JUnit XML with encoding/xml (and against the
// Jenkins schema with xmllint), TAP 14 with a minimal parser whose YAML
// blocks a YAML reader must accept, and the HTML page with
// golang.org/x/net/html. The fuzz test of internal/report and the
// end-to-end test of the Python example share it.
package reportcheck
