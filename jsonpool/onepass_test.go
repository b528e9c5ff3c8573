package jsonpool_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/pool"
)

// The fast decode path checks the syntax as it decodes, instead of after
// isValid, and may have written part of a document into the target before
// it finds a syntax error. These tests hold it to encoding/json, which
// checks the whole document before it writes anything: on every input the
// same error, and after an error a target as Clear would leave the one
// passed in, its slices of the same capacity and nil where they were nil.

type opDoc struct {
	ID    int64     `json:"id"`
	Name  string    `json:"name"`
	OK    bool      `json:"ok"`
	W     float64   `json:"w"`
	At    time.Time `json:"at"`
	Tags  []string  `json:"tags"`
	Items []opItem  `json:"items"`
	Empty []int     `json:"empty"`
	Null  []int     `json:"null"`
	P     *opItem   `json:"p"`
}

type opItem struct {
	SKU  string   `json:"sku"`
	Subs []string `json:"subs"`
	N    int32    `json:"n"`
}

// opJSON sets every field of opDoc, grows each of dirtyOpDoc's slices, and
// has an unknown member of nested containers: a syntax error can fall at
// any point of the fast path's work.
const opJSON = ` {"id":-12,"name":"a\"\u00e9\ud83d\ude00b","ok":true,"w":2.5e-1,` +
	`"at":"2026-11-22T10:17:42+01:00","tags":["t1","t2","t3"],` +
	`"items":[{"sku":"s1","subs":["x","y","z"],"n":7},{"subs":[]},{"sku":"s3"}],` +
	`"empty":[],"null":null,"p":{"subs":["q"]},"other":[1,{"a":[true,false,null,"]"]},-0.5e+3]} `

// dirtyOpDoc returns a used target: slices shorter than opJSON's, one nil
// slice where opJSON has [], one with room where it has null.
func dirtyOpDoc() *opDoc {
	v := &opDoc{ID: 5, Name: "old", OK: true, W: 1, At: time.Unix(1, 0),
		Tags:  make([]string, 1, 2),
		Items: make([]opItem, 2),
		Null:  make([]int, 1, 3),
		P:     &opItem{SKU: "old"},
	}
	v.Items[0].Subs = make([]string, 1, 2)
	v.Items[1].Subs = []string{"old"}
	return v
}

// opShape is the capacity of each slice of an opDoc, -1 for a nil one,
// down to the elements of Items up to its capacity.
func opShape(v *opDoc) []int {
	c := func(v reflect.Value) int {
		if v.IsNil() {
			return -1
		}
		return v.Cap()
	}
	s := []int{c(reflect.ValueOf(v.Tags)), c(reflect.ValueOf(v.Items)), c(reflect.ValueOf(v.Empty)), c(reflect.ValueOf(v.Null))}
	for _, it := range v.Items[:cap(v.Items)] {
		s = append(s, c(reflect.ValueOf(it.Subs)))
	}
	return s
}

// emptyNil returns a copy of v with each nil slice made empty, for a
// comparison that does not tell them apart.
func emptyNil(v opDoc) opDoc {
	mk := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	mi := func(s []int) []int {
		if s == nil {
			return []int{}
		}
		return s
	}
	v.Tags, v.Empty, v.Null = mk(v.Tags), mi(v.Empty), mi(v.Null)
	if v.Items == nil {
		v.Items = []opItem{}
	}
	items := make([]opItem, len(v.Items))
	for k, it := range v.Items {
		it.Subs = mk(it.Subs)
		items[k] = it
	}
	v.Items = items
	if v.P != nil {
		p := *v.P
		p.Subs = mk(p.Subs)
		v.P = &p
	}
	return v
}

// checkOnePass decodes data with UnmarshalReuse into a dirty target and
// with Unmarshal, and holds both to json.Unmarshal into a fresh value.
func checkOnePass(t *testing.T, pool *pool.Pool[*opDoc], data []byte) {
	t.Helper()
	var want opDoc
	wantErr := json.Unmarshal(data, &want)

	v := dirtyOpDoc()
	before := opShape(v)
	err := jsonpool.UnmarshalReuse(v, data)
	if !sameErr(err, wantErr) {
		t.Fatalf("UnmarshalReuse(%q) error = %v, want %v", data, err, wantErr)
	}
	switch {
	case err == nil:
		if !reflect.DeepEqual(emptyNil(*v), emptyNil(want)) {
			t.Fatalf("UnmarshalReuse(%q) = %+v, want %+v", data, *v, want)
		}
	default:
		// Cleared: every value zero, no slice longer than 0.
		if !reflect.DeepEqual(emptyNil(*v), emptyNil(opDoc{})) || len(v.Tags)+len(v.Items)+len(v.Empty)+len(v.Null) != 0 {
			t.Fatalf("UnmarshalReuse(%q) left %+v after error %v", data, *v, err)
		}
		// After a syntax error, the slices as they were: encoding/json
		// v1 touches nothing before it has checked the whole document.
		// (v2 decodes before it finds trailing data, into the target
		// cleared as before.)
		if _, syntax := err.(*json.SyntaxError); syntax && !jsonV2Experiment && !reflect.DeepEqual(opShape(v), before) {
			t.Fatalf("UnmarshalReuse(%q) changed the slices' capacities from %v to %v on error %v", data, before, opShape(v), err)
		}
	}

	got, err := jsonpool.Unmarshal(pool, data)
	if !sameErr(err, wantErr) {
		t.Fatalf("Unmarshal(%q) error = %v, want %v", data, err, wantErr)
	}
	if err == nil {
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("Unmarshal(%q) = %+v, want %+v", data, *got, want)
		}
		pool.Put(got)
	}
}

// TestOnePassEveryByteEveryPosition puts each of the 256 byte values at
// each position of opJSON.
func TestOnePassEveryByteEveryPosition(t *testing.T) {
	p := jsonpool.NewPool[opDoc]()
	checkOnePass(t, p, []byte(opJSON))
	data := []byte(opJSON)
	step := 1
	if testing.Short() {
		step = 7
	}
	for k := range data {
		orig := data[k]
		for b := 0; b < 256; b += step {
			data[k] = byte(b)
			checkOnePass(t, p, data)
		}
		data[k] = orig
	}
}

// TestOnePassTruncated cuts opJSON at every length, and appends to it each
// byte value and a few trailers.
func TestOnePassTruncated(t *testing.T) {
	p := jsonpool.NewPool[opDoc]()
	for n := 0; n <= len(opJSON); n++ {
		checkOnePass(t, p, []byte(opJSON[:n]))
	}
	for b := 0; b < 256; b++ {
		checkOnePass(t, p, append([]byte(opJSON), byte(b)))
	}
	for _, tail := range []string{"{}", "[]", " x", "]", "}", ",1", `"`, "null", "0", " \n\t\r"} {
		checkOnePass(t, p, []byte(opJSON+tail))
	}
}

type opInts struct {
	I8  int8   `json:"i8"`
	I16 int16  `json:"i16"`
	I32 int32  `json:"i32"`
	I64 int64  `json:"i64"`
	I   int    `json:"i"`
	U8  uint8  `json:"u8"`
	U16 uint16 `json:"u16"`
	U32 uint32 `json:"u32"`
	U64 uint64 `json:"u64"`
	U   uint   `json:"u"`
}

// TestIntegersAsEncodingJSON decodes the boundaries of every integer size,
// one past them, and numbers of every shape JSON allows and some it does
// not, into each integer field, and holds the error and value to
// json.Unmarshal's.
func TestIntegersAsEncodingJSON(t *testing.T) {
	nums := []string{"0", "-0", "1", "-1", "00", "01", "-01", "-", "--1", "+1", "1.0", "1.", "1e0", "1E0", "1e+0", "0e0",
		"-0.0", "12a", "1 ", " 1", "9999999999999999999", "10000000000000000000", "99999999999999999999",
		"18446744073709551615", "18446744073709551616", "123456789012345678901234567890"}
	for _, bits := range []uint{8, 16, 32, 64} {
		max := uint64(1)<<(bits-1) - 1
		for _, u := range []uint64{max, max + 1, max + 2, 2*max + 1, 2*max + 2} {
			nums = append(nums, fmt.Sprint(u), "-"+fmt.Sprint(u))
		}
	}
	var v opInts
	for _, name := range []string{"i8", "i16", "i32", "i64", "i", "u8", "u16", "u32", "u64", "u"} {
		for _, n := range nums {
			for _, doc := range []string{`{"` + name + `":` + n + `}`, `{"` + name + `":` + n + `,"i64":5}`, `[` + n + `]`} {
				var want opInts
				wantErr := json.Unmarshal([]byte(doc), &want)
				err := jsonpool.UnmarshalReuse(&v, []byte(doc))
				if wantErr != nil {
					want = opInts{} // UnmarshalReuse clears v on error
				}
				if !sameErr(err, wantErr) || v != want {
					t.Fatalf("UnmarshalReuse(%s) = %+v, %v; want %+v, %v", doc, v, err, want, wantErr)
				}
			}
		}
	}
}
