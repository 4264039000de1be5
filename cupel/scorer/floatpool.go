package scorer

import "github.com/cupel-go/go-cupel/cupel/internal/keysort"

// floatPool recycles the buffers the composite and scaled batch paths score
// their children into.
var floatPool keysort.SlicePool[float64]
