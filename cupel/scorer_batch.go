package cupel

// floatPool recycles the buffers the composite and scaled batch paths score
// their children into.
var floatPool slicePool[float64]
