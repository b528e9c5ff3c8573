package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/workloads"
	"github.com/poolkit/poolkit/jsonpool"
)

// BenchmarkSeed runs the JSON workloads of `poolkit bench`, registered in
// internal/workloads/json.go: the seed articles' encode stream, decode,
// decode stream and 1 KiB-array unmarshal, each as the naive version, the
// article's pooled version and jsonpool's, with the same output.
//
//	go test -run '^$' -bench 'Seed' -benchtime 200ms -count 10 ./jsonpool | benchstat -col /variant -
func BenchmarkSeed(b *testing.B) {
	for _, c := range workloads.All() {
		if !strings.HasPrefix(c.Workload, "json ") || c.Parallel {
			continue
		}
		name := strings.ReplaceAll(strings.TrimPrefix(c.Workload, "json "), " ", "_") + "/variant=" + string(c.Variant)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var (
	benchSinkBytes []byte
	benchSinkAny   any
	benchSinkSeed  seedData
)

// BenchmarkCorpus measures throughput on Go's JSON corpora, decoded into
// any: encoding/json against jsonpool. Marshal's dst and Unmarshal's values
// are reused by jsonpool, as a server would.
//
//	go test -run '^$' -bench 'Corpus' -benchtime 200ms -count 10 ./jsonpool | benchstat -col /impl -
func BenchmarkCorpus(b *testing.B) {
	all := corpus(b)
	for _, name := range []string{"twitter_status", "citm_catalog"} {
		data := all[name]
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		encoded, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/op=Marshal/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(encoded)))
			for b.Loop() {
				out, err := json.Marshal(v)
				if err != nil {
					b.Fatal(err)
				}
				benchSinkBytes = out
			}
		})
		b.Run(name+"/op=Marshal/impl=jsonpool", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(encoded)))
			var dst []byte
			for b.Loop() {
				var err error
				dst, err = jsonpool.Marshal(dst[:0], v)
				if err != nil {
					b.Fatal(err)
				}
			}
			benchSinkBytes = dst
		})
		b.Run(name+"/op=Unmarshal/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var out any
				if err := json.Unmarshal(data, &out); err != nil {
					b.Fatal(err)
				}
				benchSinkAny = out
			}
		})
		b.Run(name+"/op=Unmarshal/impl=jsonpool", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			p := jsonpool.NewPool[any]()
			for b.Loop() {
				out, err := jsonpool.Unmarshal(p, data)
				if err != nil {
					b.Fatal(err)
				}
				benchSinkAny = *out
				p.Put(out)
			}
		})
		b.Run(name+"/op=Decode/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var out any
				if err := json.NewDecoder(bytes.NewReader(data)).Decode(&out); err != nil {
					b.Fatal(err)
				}
				benchSinkAny = out
			}
		})
		b.Run(name+"/op=Decode/impl=jsonpool", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			p := jsonpool.NewPool[any]()
			for b.Loop() {
				out, err := jsonpool.Decode(p, bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				benchSinkAny = *out
				p.Put(out)
			}
		})
	}
}

// BenchmarkParallel encodes and decodes the seed struct from every P at
// once, encoding/json against jsonpool.
//
//	go test -run '^$' -bench 'Parallel' -benchtime 200ms -count 10 ./jsonpool | benchstat -col /impl -
func BenchmarkParallel(b *testing.B) {
	seedBytes := []byte(seedJSON)
	b.Run("op=Marshal/impl=encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var out []byte
			for pb.Next() {
				var err error
				if out, err = json.Marshal(&seedValue); err != nil {
					b.Error(err)
					return
				}
			}
			_ = out
		})
	})
	b.Run("op=Marshal/impl=jsonpool", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var dst []byte
			for pb.Next() {
				var err error
				if dst, err = jsonpool.Marshal(dst[:0], &seedValue); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("op=Unmarshal/impl=encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var v seedData
			for pb.Next() {
				v = seedData{}
				if err := json.Unmarshal(seedBytes, &v); err != nil {
					b.Error(err)
					return
				}
			}
			_ = v
		})
	})
	b.Run("op=Unmarshal/impl=jsonpool", func(b *testing.B) {
		b.ReportAllocs()
		p := jsonpool.NewPool[seedData]()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				v, err := jsonpool.Unmarshal(p, seedBytes)
				if err != nil {
					b.Error(err)
					return
				}
				p.Put(v)
			}
		})
	})
}
