package jsonpool_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/poolkit/poolkit/jsonpool"
)

// benchNumbers is a struct of numeric arrays and slices: the readings of a
// sensor, as a service might receive them.
type benchNumbers struct {
	ID      int64       `json:"id"`
	Window  [24]int32   `json:"window"`
	Samples []float64   `json:"samples"`
	Counts  []int       `json:"counts"`
	Flags   [16]uint8   `json:"flags"`
	Grid    [8][8]int16 `json:"grid"`
}

// benchNumbersValue returns a benchNumbers of 256 samples and 256 counts,
// drawn with a fixed seed.
func benchNumbersValue() benchNumbers {
	rng := rand.New(rand.NewPCG(36, 1))
	var v benchNumbers
	v.ID = rng.Int64()
	for i := range v.Window {
		v.Window[i] = rng.Int32() - 1<<30
	}
	for range 256 {
		v.Samples = append(v.Samples, float64(rng.IntN(2000000)-1000000)/1000)
		v.Counts = append(v.Counts, rng.IntN(100000))
	}
	for i := range v.Flags {
		v.Flags[i] = uint8(rng.IntN(256))
	}
	for i := range v.Grid {
		for j := range v.Grid[i] {
			v.Grid[i][j] = int16(rng.IntN(65536) - 32768)
		}
	}
	return v
}

// BenchmarkUnmarshalNumbers decodes numeric arrays and slices,
// json.Unmarshal into a zeroed value against jsonpool.Unmarshal from a
// pool: the student of `poolkit bench`'s "json unmarshal 1KiB array" row
// (a struct with a [1024]byte decoded from 1024 zeros), a []int and a
// []float64 of 1024 elements each, and benchNumbers.
//
//	go test -run '^$' -bench 'UnmarshalNumbers' -count 10 ./jsonpool | benchstat -col /impl -
func BenchmarkUnmarshalNumbers(b *testing.B) {
	rng := rand.New(rand.NewPCG(36, 2))
	ints := make([]int, 1024)
	floats := make([]float64, 1024)
	for i := range ints {
		ints[i] = rng.IntN(2_000_000) - 1_000_000
		floats[i] = float64(rng.IntN(2_000_000)-1_000_000) / 100
	}
	benchUnmarshal(b, "doc=student", student{Name: "Geektutu", Age: 25})
	benchUnmarshal(b, "doc=ints", ints)
	benchUnmarshal(b, "doc=floats", floats)
	benchUnmarshal(b, "doc=struct", benchNumbersValue())
}

func benchUnmarshal[T any](b *testing.B, name string, value T) {
	data, err := json.Marshal(value)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(name+"/impl=encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		v := new(T)
		loop(b, func() error {
			var zero T
			*v = zero
			return json.Unmarshal(data, v)
		})
	})
	p := jsonpool.NewPool[T]()
	b.Run(name+"/impl=jsonpool", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		loop(b, func() error {
			v, err := jsonpool.Unmarshal(p, data)
			if err == nil {
				p.Put(v)
			}
			return err
		})
	})
}
