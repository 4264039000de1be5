package protocol

// EncodeLine and ReadResult are encodeLine and readResult, for the tests
// that check them against go-cupel's own results.
var (
	EncodeLine = encodeLine
	ReadResult = readResult
)
