package protocol

// Status is the verdict on one case.
type Status string

// Case statuses.
const (
	StatusPass           Status = "pass"
	StatusFail           Status = "fail"
	StatusError          Status = "error"
	StatusCrash          Status = "crash"
	StatusTimeout        Status = "timeout"
	StatusUnsupported    Status = "unsupported"
	StatusNotRun         Status = "not-run"
	StatusXFail          Status = "xfail"
	StatusSkip           Status = "skip"
	StatusUnexpectedPass Status = "unexpected-pass"
)

// Statuses lists every status in report order.
var Statuses = []Status{StatusPass, StatusFail, StatusError, StatusCrash, StatusTimeout,
	StatusUnsupported, StatusNotRun, StatusXFail, StatusSkip, StatusUnexpectedPass}
