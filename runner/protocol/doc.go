// Package protocol is cupel-conform/1, the line-delimited JSON protocol
// between the conformance runner and an implementation in any language
// (PROTOCOL.md in this directory is its specification), and the Go side of
// both ends of it.
//
//   - The messages: [HelloRequest] and [HelloResponse], [RunMessage]
//     carrying a [Request] (one case's [vector.Input]), [ResultMessage]
//     carrying a [Result], and [ByeMessage]; [ParseLine] reads one line of
//     at most [MaxLine] bytes.
//   - [Implementation] is what is tested: anything with Hello and Run.
//     [Serve] puts any Implementation behind the protocol on a reader and a
//     writer.
//   - [Process] is the other end: an implementation that is a program,
//     run as one session or one process per case, supervised for crashes,
//     hangs, floods and protocol errors (each a [Fault]). Its optional
//     methods are the interfaces [RestartCounter], [TimeoutGracer],
//     [StderrReporter] and [Forker], which the runner looks for on any
//     Implementation.
//   - [Outcome] is what the runner judged one case, from pass to a crash;
//     a [Result]'s Kind is what the implementation answered.
//
// Package runner runs a suite through an Implementation and judges the
// results.
package protocol
