package rules

import (
	"math"
	"testing"
)

func TestAddTokens(t *testing.T) {
	for _, c := range []struct {
		a, b, sum int
		ok        bool
	}{
		{1, 2, 3, true},
		{math.MaxInt, 1, 0, false},
		{math.MinInt, -1, 0, false},
		{math.MaxInt, -1, math.MaxInt - 1, true},
	} {
		if s, ok := AddTokens(c.a, c.b); s != c.sum || ok != c.ok {
			t.Errorf("AddTokens(%d, %d) = %d, %v; want %d, %v", c.a, c.b, s, ok, c.sum, c.ok)
		}
	}
}

func TestFloorMul(t *testing.T) {
	for _, c := range []struct {
		v    int
		mult float64
		want int
	}{
		{100, 0.5, 50},
		{99, 0.5, 49},
		{7, 1, 7},
		{math.MaxInt, 1, math.MaxInt}, // the float64 product rounds up
		{10, 0, 0},
	} {
		if got := FloorMul(c.v, c.mult); got != c.want {
			t.Errorf("FloorMul(%d, %v) = %d; want %d", c.v, c.mult, got, c.want)
		}
	}
}

func TestIsBlankAndFormatFloat(t *testing.T) {
	if !IsBlank(" \t\n") || !IsBlank("") || IsBlank(" a ") {
		t.Error("IsBlank: white space only is blank, anything else is not")
	}
	if got := FormatFloat(0.1); got != "0.1" {
		t.Errorf("FormatFloat(0.1) = %q", got)
	}
	if got := FormatFloat(1e21); got != "1e+21" {
		t.Errorf("FormatFloat(1e21) = %q", got)
	}
}
