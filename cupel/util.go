package cupel

import "strconv"

func formatInt(i int64) string { return strconv.FormatInt(i, 10) }
