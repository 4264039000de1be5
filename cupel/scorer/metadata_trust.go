package scorer

import (
	"math"
	"strconv"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/internal/enginehook"
)

// MetadataKeyTrust is the metadata key MetadataTrust reads:
// "cupel:trust". Keys with the "cupel:" prefix are reserved for the library's
// conventions (spec chapter 22 (MetadataTrustScorer)).
const MetadataKeyTrust = "cupel:trust"

// MetadataTrust is the spec's MetadataTrustScorer (chapter 22; ruling 20):
// it passes the trust value stored in metadata["cupel:trust"] through as
// the score, clamped to [0, 1].
//
// The value is read as follows, in the spec's order: a missing key gives the
// default score; a float64 value is used directly; a string value is parsed
// as a decimal float ("0.85", "-1", ".5", "1e-3"; see
// [MetadataTrust.Score] for the exact syntax), and a string that does
// not parse ("high", "", " 0.5", "0x1p-1", "1_0") gives the default score;
// a value of any other type (int, float32, bool, nil, ...) is a parse
// failure and gives the default score; a NaN or infinite value, parsed or
// stored, gives the default score and is never clamped; any other value is
// clamped to [0, 1]. Items are never excluded by this scorer.
//
// A nil item scores 0; allItems is ignored. The zero value has default
// score 0. A MetadataTrust is immutable and safe for concurrent use.
type MetadataTrust struct {
	defaultScore float64
}

// NewMetadataTrust returns a MetadataTrust whose default score,
// returned when the trust value is missing, unparseable or not finite, is
// defaultScore. defaultScore must be in [0, 1] (not NaN); the error is a
// [*cupel.ValidationError] wrapping [cupel.ErrInvalidConfig] with Field "defaultScore".
// The spec's conventional default is 0.5.
func NewMetadataTrust(defaultScore float64) (*MetadataTrust, error) {
	if !(defaultScore >= 0.0 && defaultScore <= 1.0) {
		return nil, enginehook.InvalidConfig("MetadataTrustScorer", "defaultScore", defaultScore, "must be in [0, 1]")
	}
	return &MetadataTrust{defaultScore: defaultScore}, nil
}

// DefaultScore returns the configured default score.
func (s *MetadataTrust) DefaultScore() float64 { return s.defaultScore }

// Score implements METADATA-TRUST-SCORE of spec chapter
// 22 (MetadataTrustScorer).
//
// The accepted string syntax is that of a decimal float literal: an optional
// sign, digits with an optional decimal point (at least one digit on either
// side of it), and an optional exponent (e or E, an optional sign, digits).
// It accepts what Rust's str::parse::<f64> accepts for finite numbers and
// rejects hexadecimal forms, digit separators and surrounding white space,
// which Go's strconv.ParseFloat would otherwise take. Spellings of NaN and
// infinity give the default score either way, as do literals that overflow
// float64 ("1e400"); literals that underflow parse as 0.
func (s *MetadataTrust) Score(item *cupel.ContextItem, _ []*cupel.ContextItem) float64 {
	if item == nil {
		return 0.0
	}
	raw, ok := item.MetadataValue(MetadataKeyTrust)
	if !ok {
		return s.defaultScore
	}
	var value float64
	switch v := raw.(type) {
	case float64:
		value = v
	case string:
		f, ok := parseDecimalFloat(v)
		if !ok {
			return s.defaultScore
		}
		value = f
	default:
		return s.defaultScore
	}
	return clampUnit(value, s.defaultScore)
}

// parseDecimalFloat parses s when it is a decimal float literal
// ([+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?). Overflow
// gives ±Inf (which the caller maps to the default score).
func parseDecimalFloat(s string) (float64, bool) {
	if !isDecimalFloat(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

func isDecimalFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - start
	}
	mantissa := digits()
	if i < len(s) && s[i] == '.' {
		i++
		mantissa += digits()
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
