package chat

import (
	"fmt"
	"math"
	"slices"

	"github.com/cupel-go/go-cupel/cupel"
)

// Usage pairs what go-cupel estimated a request's input to cost with what
// the provider billed for it (the usage block of its response: OpenAI's
// prompt_tokens, Anthropic's input_tokens plus its cache read and write
// tokens).
type Usage struct {
	// Estimated is the selection's count (Result.TotalTokens plus what the
	// request spends outside its turns). Must be > 0.
	Estimated int
	// Reported is the provider's count. Must be >= 0.
	Reported int
}

// Drift is how far estimates drift from what the provider reports, as
// [Calibrate] measures it. A ratio is Reported / Estimated: above 1, the
// estimate was short.
type Drift struct {
	// Requests is the number of pairs measured.
	Requests int
	// MeanRatio, MinRatio and MaxRatio summarise the ratios.
	MeanRatio, MinRatio, MaxRatio float64
	// MeanError is the mean of |Reported - Estimated| / Reported, over the
	// requests with Reported > 0.
	MeanError float64
	// Coverage is the share of requests MarginPercent is computed for.
	Coverage float64
	// MarginPercent is the smallest estimation safety margin (for
	// cupel.BudgetSpec.EstimationSafetyMarginPercent) that would have kept
	// Coverage of the requests inside the window: a budget that lets the
	// estimate reach (1 - MarginPercent/100) of the window keeps a request
	// whose ratio is r inside it when r <= 1 / (1 - MarginPercent/100). It
	// is 0 when the estimates were never short for that share, and at most
	// 99.
	MarginPercent float64
}

// Calibrate measures the drift of estimated token counts from the counts a
// provider reported, and the margin that would have kept coverage (in
// (0, 1], e.g. 0.99) of the requests inside the window. It errors, wrapping
// cupel.ErrInvalidArgument and naming the pair, on no pairs, an Estimated
// that is not positive, a negative Reported or a coverage out of range.
func Calibrate(pairs []Usage, coverage float64) (Drift, error) {
	if len(pairs) == 0 {
		return Drift{}, fmt.Errorf("%w: chat.Calibrate: no pairs", cupel.ErrInvalidArgument)
	}
	if math.IsNaN(coverage) || coverage <= 0 || coverage > 1 {
		return Drift{}, fmt.Errorf("%w: chat.Calibrate: coverage must be in (0, 1] (got %v)", cupel.ErrInvalidArgument, coverage)
	}
	ratios := make([]float64, len(pairs))
	d := Drift{Requests: len(pairs), Coverage: coverage}
	errs := 0
	for i, p := range pairs {
		if p.Estimated <= 0 || p.Reported < 0 {
			return Drift{}, fmt.Errorf("%w: chat.Calibrate: pairs[%d]: Estimated must be > 0 and Reported >= 0 (got %d, %d)", cupel.ErrInvalidArgument, i, p.Estimated, p.Reported)
		}
		ratios[i] = float64(p.Reported) / float64(p.Estimated)
		d.MeanRatio += ratios[i]
		if p.Reported > 0 {
			d.MeanError += math.Abs(float64(p.Reported-p.Estimated)) / float64(p.Reported)
			errs++
		}
	}
	slices.Sort(ratios)
	d.MeanRatio /= float64(len(ratios))
	if errs > 0 {
		d.MeanError /= float64(errs)
	}
	d.MinRatio, d.MaxRatio = ratios[0], ratios[len(ratios)-1]
	// The ratio that coverage of the requests do not exceed.
	k := int(math.Ceil(coverage*float64(len(ratios)))) - 1
	if r := ratios[max(k, 0)]; r > 1 {
		d.MarginPercent = math.Min(99, math.Ceil(1000*(1-1/r))/10)
	}
	return d, nil
}
