package protocol

// EncodeLine, ReadRun and ReadResult are encodeLine, readRun and
// readResult, for the tests that check them against go-cupel's own
// results and against encoding/json.
var (
	EncodeLine = encodeLine
	ReadRun    = readRun
	ReadResult = readResult
)
