package numfmt

import "testing"

func TestAllocs(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1: "1", 21: "21", 1.5: "1.5", 1.0001: "1.000",
		0.001: "0.001", 0.125: "0.125", 0.00004: "4e-05", 1.0 / 3: "0.333"} {
		if got := Allocs(v); got != want {
			t.Errorf("Allocs(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.4: "0", 0.5: "1", 999: "999", 1000: "1,000",
		26479.4: "26,479", 1234567: "1,234,567"} {
		if got := Count(v); got != want {
			t.Errorf("Count(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestSize(t *testing.T) {
	for v, want := range map[float64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 512 * 1024: "512.0 KiB",
		1.5 * (1 << 20): "1.5 MiB", 3 << 30: "3.0 GiB"} {
		if got := Size(v); got != want {
			t.Errorf("Size(%v) = %q, want %q", v, got, want)
		}
	}
}
