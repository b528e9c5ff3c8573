package main

import (
	"math"
	"testing"
)

// TestPairedRatio checks the CPU goals' statistic: the median of the
// rounds' ratios, which a few rounds disturbed in one variant's phase
// leave alone, where the ratio of the medians moves.
func TestPairedRatio(t *testing.T) {
	rounds := func(cpu ...float64) *variantReport {
		v := &variantReport{Fixed: [][]phaseResult{make([]phaseResult, len(cpu))}}
		for i, c := range cpu {
			v.Fixed[0][i].CPUus = c
		}
		return v
	}
	// a costs 0.9x b when neither is disturbed; b is disturbed in three
	// rounds, a in one. b's median is a disturbed round, so the ratio of
	// the medians is 0.45; the rounds' ratios are 0.9, 0.95, 0.45, 0.9
	// and 0.3, whose median is 0.9.
	a := rounds(90, 95, 90, 180, 90)
	b := rounds(100, 100, 200, 200, 300)
	if got := median([]float64{90, 95, 90, 180, 90}) / median([]float64{100, 100, 200, 200, 300}); got != 0.45 {
		t.Fatalf("the example's ratio of medians is %v, not 0.45", got)
	}
	if got := pairedRatio(a, b); math.Abs(got-0.9) > 1e-9 {
		t.Errorf("pairedRatio = %v, want 0.9", got)
	}
	// Unequal round counts pair what there is; no rounds, no ratio.
	if got := pairedRatio(rounds(50, 60), rounds(100, 100, 1)); got != 0.55 {
		t.Errorf("pairedRatio over 2 pairs = %v, want 0.55", got)
	}
	if got := pairedRatio(rounds(), rounds(1)); got != 0 {
		t.Errorf("pairedRatio with no rounds = %v, want 0", got)
	}
	if got := pairedRatio(rounds(5), rounds(0)); got != 0 {
		t.Errorf("pairedRatio with a zero divisor = %v, want 0", got)
	}
}
