package pool_test

import (
	"testing"

	"github.com/poolkit/poolkit/pool"
)

func TestStatsHitRatio(t *testing.T) {
	tests := []struct {
		s    pool.Stats
		want float64
	}{
		{pool.Stats{}, 0},                    // no Gets yet
		{pool.Stats{Gets: 4, News: 4}, 0},    // every Get made a value
		{pool.Stats{Gets: 4, News: 1}, 0.75}, // three of four reused
		{pool.Stats{Gets: 4}, 1},             // all reused
		{pool.Stats{Gets: 4, News: 5}, 0},    // News loaded after a racing Get
		{pool.Stats{Gets: 1 << 40, News: 1 << 38}, 0.75},
	}
	for _, tt := range tests {
		if got := tt.s.HitRatio(); got != tt.want {
			t.Errorf("%+v.HitRatio() = %v, want %v", tt.s, got, tt.want)
		}
	}
}
