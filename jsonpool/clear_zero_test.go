package jsonpool_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

type zeroInner struct {
	S string
	B byte // padding follows
	P *int
	T time.Time
}

// zeroKinds has a field of each kind that Clear zeroes, in runs that it
// merges (strings, pointer-free bytes across padding, pointers) and split
// by fields whose capacity it keeps.
type zeroKinds struct {
	A, B     int64
	S1, S2   string
	Flag     bool
	S3       string
	Keep1    []int
	C        int32
	D        uint16
	Ptr      *int
	Ch       chan int
	Fn       func()
	UP       unsafe.Pointer
	Raw      json.RawMessage
	Bytes    []byte
	Any      any
	Err      error
	Arr      [3]string
	Nums     [4]int16
	In       zeroInner
	Ins      [2]zeroInner
	Keep2    map[string]int
	Tail     float64
	At       time.Time
	Keep3    []zeroInner
	Keep4    []int64
	hidden   string
	Last     uint8
	KeepLast []string
}

// TestClearZeroesEveryKind holds Clear to reflect's own IsZero on each
// field that keeps nothing, and checks that the fields that keep their
// capacity keep it, their elements cleared.
func TestClearZeroesEveryKind(t *testing.T) {
	n := 5
	fill := func() *zeroKinds {
		v := &zeroKinds{A: 1, B: 2, S1: "s1", S2: "s2", Flag: true, S3: "s3", Keep1: make([]int, 3, 7),
			C: 3, D: 4, Ptr: &n, Ch: make(chan int), Fn: func() {}, UP: unsafe.Pointer(&n),
			Raw: json.RawMessage(`1`), Bytes: []byte("b"), Any: 1, Err: errors.New("e"),
			Arr: [3]string{"a", "b", "c"}, Nums: [4]int16{1, 2, 3, 4},
			In:    zeroInner{S: "in", B: 1, P: &n, T: time.Now()},
			Ins:   [2]zeroInner{{S: "x", P: &n}, {B: 9, T: time.Unix(5, 0)}},
			Keep2: map[string]int{"k": 1}, Tail: 1.5, At: time.Now(),
			Keep3: make([]zeroInner, 2, 4), Keep4: []int64{1, 2, 3}, hidden: "h", Last: 7,
			KeepLast: []string{"x", "y"},
		}
		v.Keep1[2] = 9
		v.Keep3[1] = zeroInner{S: "e", P: &n, T: time.Now()}
		v.Keep3[:4][3] = zeroInner{S: "beyond", B: 1}
		return v
	}
	v := fill()
	jsonpool.Clear(v)
	rv := reflect.ValueOf(v).Elem()
	keep := map[string]int{"Keep1": 7, "Keep3": 4, "Keep4": 3, "KeepLast": 2}
	for i := 0; i < rv.NumField(); i++ {
		f, name := rv.Field(i), rv.Type().Field(i).Name
		if c, ok := keep[name]; ok {
			if f.Len() != 0 || f.Cap() != c {
				t.Errorf("%s: len %d cap %d, want 0 and %d", name, f.Len(), f.Cap(), c)
			}
			full := f.Slice(0, f.Cap())
			for k := 0; k < full.Len(); k++ {
				if !full.Index(k).IsZero() {
					t.Errorf("%s[:cap][%d] = %v, want zero", name, k, full.Index(k))
				}
			}
			continue
		}
		if name == "Keep2" {
			if f.IsNil() || f.Len() != 0 {
				t.Errorf("Keep2 = %v, want the map, emptied", f)
			}
			continue
		}
		if !f.IsZero() {
			t.Errorf("%s = %v after Clear, want zero", name, f)
		}
	}

	// The same with the garbage collector running: the typed stores
	// keep its write barriers, and nothing it frees is still reachable.
	pooltest.CollectConcurrently(t)
	for k := 0; k < 2000; k++ {
		v := fill()
		jsonpool.Clear(v)
		if v.S1 != "" || v.In.P != nil || v.Keep3[:2][1].S != "" || cap(v.Keep1) != 7 {
			t.Fatalf("Clear left %+v", v)
		}
	}
}
