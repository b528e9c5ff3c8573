package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/poolkit/poolkit/internal/cputime"
	"github.com/poolkit/poolkit/jsonpool"
)

// loop runs f under b.Loop and reports, besides the wall time, the CPU
// time per operation ("cpu-ns/op"), steadier on a loaded machine.
func loop(b *testing.B, f func() error) {
	b.Helper()
	b.ReportAllocs()
	cpu := cputime.Start()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
}

// parallel is loop under b.RunParallel; newOp makes each goroutine's op.
func parallel(b *testing.B, newOp func() func() error) {
	b.ReportAllocs()
	cpu := cputime.Start()
	b.RunParallel(func(pb *testing.PB) {
		op := newOp()
		for pb.Next() {
			if err := op(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	cpu.Report(b)
}

var (
	benchSinkBytes []byte
	benchSinkAny   any
)

// BenchmarkCorpus measures throughput on Go's JSON corpora, decoded into
// any: encoding/json against jsonpool. jsonpool reuses Marshal's dst and
// Unmarshal's values, as a server would.
//
//	go test -run '^$' -bench 'Corpus' -benchtime 300ms -count 10 ./jsonpool | benchstat -col /impl -
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
		p := jsonpool.NewPool[any]()
		var dst []byte
		ops := []struct {
			name string
			size int
			f    func() error
		}{
			{"op=Marshal/impl=encoding_json", len(encoded), func() (err error) {
				benchSinkBytes, err = json.Marshal(v)
				return err
			}},
			{"op=Marshal/impl=jsonpool", len(encoded), func() (err error) {
				dst, err = jsonpool.Marshal(dst[:0], v)
				return err
			}},
			{"op=Unmarshal/impl=encoding_json", len(data), func() error {
				var out any
				err := json.Unmarshal(data, &out)
				benchSinkAny = out
				return err
			}},
			{"op=Unmarshal/impl=jsonpool", len(data), func() error {
				out, err := jsonpool.Unmarshal(p, data)
				if err != nil {
					return err
				}
				benchSinkAny = *out
				p.Put(out)
				return nil
			}},
			{"op=Decode/impl=encoding_json", len(data), func() error {
				var out any
				err := json.NewDecoder(bytes.NewReader(data)).Decode(&out)
				benchSinkAny = out
				return err
			}},
			{"op=Decode/impl=jsonpool", len(data), func() error {
				out, err := jsonpool.Decode(p, bytes.NewReader(data))
				if err != nil {
					return err
				}
				benchSinkAny = *out
				p.Put(out)
				return nil
			}},
		}
		for _, op := range ops {
			b.Run(name+"/"+op.name, func(b *testing.B) {
				b.SetBytes(int64(op.size))
				loop(b, op.f)
			})
		}
	}
}

// BenchmarkParallel encodes and decodes the sample struct from every P at
// once, encoding/json against jsonpool.
//
//	go test -run '^$' -bench 'Parallel' -benchtime 200ms -count 10 ./jsonpool | benchstat -col /impl -
func BenchmarkParallel(b *testing.B) {
	sampleBytes := []byte(sampleJSON)
	p := jsonpool.NewPool[sampleData]()
	b.Run("op=Marshal/impl=encoding_json", func(b *testing.B) {
		parallel(b, func() func() error {
			return func() error { _, err := json.Marshal(&sampleValue); return err }
		})
	})
	b.Run("op=Marshal/impl=jsonpool", func(b *testing.B) {
		parallel(b, func() func() error {
			var dst []byte
			return func() (err error) { dst, err = jsonpool.Marshal(dst[:0], &sampleValue); return err }
		})
	})
	b.Run("op=Unmarshal/impl=encoding_json", func(b *testing.B) {
		parallel(b, func() func() error {
			return func() error { var v sampleData; return json.Unmarshal(sampleBytes, &v) }
		})
	})
	b.Run("op=Unmarshal/impl=jsonpool", func(b *testing.B) {
		parallel(b, func() func() error {
			return func() error {
				v, err := jsonpool.Unmarshal(p, sampleBytes)
				if err == nil {
					p.Put(v)
				}
				return err
			}
		})
	})
}
