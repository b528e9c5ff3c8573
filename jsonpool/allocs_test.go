package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// student is a small struct with a 1 KiB array field.
type student struct {
	Name   string
	Age    int32
	Remark [1024]byte
}

var (
	allocSinkString string
	allocSinkSample sampleData
	allocSinkStu    student
)

// perEngine returns v1 when encoding/json runs on its v1 engine (the
// default up to Go 1.26; Go 1.27 with GOEXPERIMENT=nojsonv2) and v2 on its
// v2 engine (the default from Go 1.27; Go 1.26 with GOEXPERIMENT=jsonv2),
// for an allocation count that depends on the engine.
//
// The counts differ where encoding/json decodes a string: the v2 engine's
// decoder keeps the last string it made from 2 to 256 bytes in each of 256
// slots of a table hashed on the bytes (encoding/json/v2's string cache),
// and jsonpool reuses its decoders, so a string the previous document held
// comes back from the table without an allocation, unless another string
// of the document shares its slot.
func perEngine(v1, v2 float64) float64 {
	if jsonV2Experiment {
		return v2
	}
	return v1
}

// TestAllocs asserts, as exact means, the allocations of each operation on
// the sample struct {ID int; Name string; Items []string}, on each engine of
// encoding/json (see perEngine).
func TestAllocs(t *testing.T) {
	pooltest.SkipIfRace(t) // before the long warm-ups below
	sampleBytes := []byte(sampleJSON)
	idOnly := []byte(`{"id":42}`)
	studentJSON, err := json.Marshal(student{Name: "Geektutu", Age: 25})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, 0, 256) // room for the sample struct's 57 bytes
	var w bytes.Buffer
	w.Grow(256)
	reader := bytes.NewReader(nil)
	samplePool := jsonpool.NewPool[sampleData]()
	stuPool := jsonpool.NewPool[student]()
	buffers := new(bytebuf.Pool)
	indented := jsonpool.Options{Indent: "  "}
	// decoded is a decode's count on the fast decode path, or, built
	// without it (poolkit_nounsafe), encoding/json's on each engine: the
	// v2 engine's pooled decoder keeps the strings of the call before.
	decoded := func(fast, v1, v2 float64) float64 {
		if jsonpool.FastPaths {
			return fast
		}
		return perEngine(v1, v2)
	}

	cases := []struct {
		name string
		want float64
		f    func() error
	}{
		// Encoding allocates nothing of its own.
		{"Marshal into dst with room", 0, func() (err error) {
			dst, err = jsonpool.Marshal(dst[:0], &sampleValue)
			return err
		}},
		{"Encode", 0, func() error { w.Reset(); return jsonpool.Encode(&w, &sampleValue) }},
		{"Encode indented", 0, func() error { w.Reset(); return indented.Encode(&w, &sampleValue) }},
		// Decoding allocates the result's strings (Name and three items)
		// and its slice as it grows to capacity 1, 2 and 4: 1+3+3.
		{"Unmarshal sample", decoded(7, 7, 3), func() error {
			v, err := jsonpool.Unmarshal(samplePool, sampleBytes)
			if err == nil {
				samplePool.Put(v)
			}
			return err
		}},
		{"Decode sample", decoded(7, 7, 3), func() error {
			reader.Reset(sampleBytes)
			v, err := jsonpool.Decode(samplePool, reader)
			if err == nil {
				samplePool.Put(v)
			}
			return err
		}},
		{"Unmarshal without strings", 0, func() error {
			v, err := jsonpool.Unmarshal(samplePool, idOnly)
			if err == nil {
				samplePool.Put(v)
			}
			return err
		}},
		// The workloads of `poolkit bench` (cmd/poolkit/internal/workloads/json.go),
		// as they run there.
		{"workload json encode stream", 1, func() error {
			buf := buffers.Get()
			err := jsonpool.Encode(buf, &sampleValue)
			allocSinkString = string(buf.B[:len(buf.B)-1])
			buffers.Put(buf)
			return err
		}},
		{"workload json decode", decoded(8, 8, 4), func() error {
			v, err := jsonpool.Unmarshal(samplePool, []byte(sampleJSON))
			if err == nil {
				allocSinkSample = *v
				samplePool.Put(v)
			}
			return err
		}},
		{"workload json decode stream", decoded(8, 8, 4), func() error {
			v, err := jsonpool.Decode(samplePool, strings.NewReader(sampleJSON))
			if err == nil {
				allocSinkSample = *v
				samplePool.Put(v)
			}
			return err
		}},
		// The fast path decodes the student's [1024]byte in place and
		// allocates its Name string; without it (poolkit_nounsafe),
		// encoding/json does too on its v1 engine, and nothing on the v2
		// engine, whose pooled decoder has "Geektutu" in its string
		// table from the call before.
		{"workload json unmarshal 1KiB array", decoded(1, 1, 0), func() error {
			v, err := jsonpool.Unmarshal(stuPool, studentJSON)
			if err == nil {
				allocSinkStu = *v
				stuPool.Put(v)
			}
			return err
		}},
	}
	for _, c := range cases {
		// Run each past the calibration of the pools underneath (about
		// 16,000 Puts for a bytebuf.Pool), so the count is the steady
		// state a server sees, not the first few hundred calls.
		for i := 0; i < 20000; i++ {
			if err := c.f(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		var err error
		if !pooltest.WantAllocs(t, c.want, func() {
			if e := c.f(); e != nil {
				err = e
			}
		}) {
			t.Logf("case %s", c.name)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	if string(dst) != sampleJSON || allocSinkString != sampleJSON || allocSinkSample.Name != "Jack" || allocSinkStu.Age != 25 {
		t.Error("an operation gave the wrong result")
	}
}
