package cupel

import "testing"

// TestCodesAgree: stageCode and inclusionCode, which compact uses on every
// item event, give each stage and inclusion reason its index in
// stageCodes and inclusionCodes, as codeOf does, and -1 for a value the
// arrays do not hold.
func TestCodesAgree(t *testing.T) {
	for i, s := range stageCodes[1:] {
		if got := stageCode(s); got != i+1 || got != codeOf(stageCodes[:], s) {
			t.Errorf("stageCode(%q) = %d, want %d", s, got, i+1)
		}
	}
	for i, r := range inclusionCodes {
		if got := inclusionCode(r); got != i || got != codeOf(inclusionCodes[:], r) {
			t.Errorf("inclusionCode(%q) = %d, want %d", r, got, i)
		}
	}
	for _, s := range []PipelineStage{"", stageSort, "place", "Placed"} {
		if got := stageCode(s); got != -1 {
			t.Errorf("stageCode(%q) = %d, want -1", s, got)
		}
	}
	for _, r := range []InclusionReason{"scored", "Pinned ", "Other"} {
		if got := inclusionCode(r); got != -1 {
			t.Errorf("inclusionCode(%q) = %d, want -1", r, got)
		}
	}
}
