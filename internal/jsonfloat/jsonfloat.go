// Package jsonfloat is the one JSON codec for floats of go-cupel: of
// package cupel's JSON forms, of a policy's spec (policy.Float is this
// type) and of the conformance protocol.
package jsonfloat

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 whose JSON form survives non-finite values: finite
// values are JSON numbers, NaN and the infinities are the strings "NaN",
// "Infinity" and "-Infinity" ("+Infinity" is also read). Negative zero is
// written -0.0, not -0, which some decoders (Python's json) read as the
// integer 0 and so lose its sign.
// null is not a number and is refused.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	case v == 0 && math.Signbit(v):
		return []byte(`-0.0`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return fmt.Errorf("cupel: null is not a number")
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "NaN":
			*f = Float(math.NaN())
		case "Infinity", "+Infinity":
			*f = Float(math.Inf(1))
		case "-Infinity":
			*f = Float(math.Inf(-1))
		default:
			return fmt.Errorf("cupel: invalid number %q (want a number, \"NaN\", \"Infinity\" or \"-Infinity\")", s)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}
