// Package pythonimpl holds the end-to-end test of cupel_impl.py, a partial
// implementation of the Cupel specification in Python 3 that speaks the
// cupel-conform/1 protocol (see README.md in this directory and
// runner/protocol/PROTOCOL.md).
//
// The test runs the embedded conformance suite against the Python program
// through package runner/protocol's session implementation
// (protocol.NewProcess), through the cupel-conform command line, one process per case, and
// offline (export, then verify), and checks the verdict case by case: the recency, priority and reflexive
// scoring cases and every placing case pass, every other case is
// unsupported, and no level is claimed. It is skipped when python3 is not
// on PATH.
package pythonimpl
