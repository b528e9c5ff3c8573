package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/race"
	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/pool"
)

type reuseItem struct {
	SKU   string         `json:"sku"`
	Qty   int            `json:"qty"`
	Notes []string       `json:"notes"`
	Attrs map[string]int `json:"attrs"`
}

type reuseOrder struct {
	ID       int                  `json:"id"`
	Customer string               `json:"customer"`
	Items    []reuseItem          `json:"items"`
	Tags     map[string]string    `json:"tags"`
	Meta     map[string]reuseItem `json:"meta"`
	Extra    any                  `json:"extra"`
	Raw      json.RawMessage      `json:"raw"`
	Bytes    []byte               `json:"bytes"`
	Matrix   [][]int              `json:"matrix"`
	Fixed    [2]reuseItem         `json:"fixed"`
	Ptr      *reuseItem           `json:"ptr"`
	Ptrs     []*reuseItem         `json:"ptrs"`
	hidden   []string             // encoding/json never sets it; Clear clears it
}

func TestClearRule(t *testing.T) {
	v := reuseOrder{
		ID: 7, Customer: "ann",
		Items:  make([]reuseItem, 2, 5),
		Tags:   map[string]string{"a": "b"},
		Meta:   map[string]reuseItem{"m": {SKU: "x"}},
		Extra:  map[string]any{"k": 1},
		Raw:    json.RawMessage(`{"r":1}`),
		Bytes:  []byte("bytes"),
		Matrix: [][]int{{1, 2}, {3}},
		Fixed:  [2]reuseItem{{SKU: "f", Notes: make([]string, 1, 3)}},
		Ptr:    &reuseItem{SKU: "p"},
		Ptrs:   []*reuseItem{{SKU: "q"}},
		hidden: []string{"h"},
	}
	// An element beyond the length, as a longer earlier document leaves.
	full := v.Items[:cap(v.Items)]
	full[4] = reuseItem{SKU: "stale", Qty: 9, Notes: make([]string, 2, 4), Attrs: map[string]int{"s": 1}}
	full[4].Notes[1] = "stale note"
	v.Items[0] = reuseItem{SKU: "one", Notes: []string{"n"}}
	tags, meta := v.Tags, v.Meta

	if got := jsonpool.Clear(&v); got != &v {
		t.Fatal("Clear did not return its argument")
	}
	if v.ID != 0 || v.Customer != "" || v.Extra != nil || v.Raw != nil || v.Bytes != nil || v.Ptr != nil {
		t.Errorf("Clear left scalars, strings, interfaces, byte slices or pointers set: %+v", v)
	}
	if len(v.Items) != 0 || cap(v.Items) != 5 {
		t.Errorf("Items has len %d cap %d, want 0 and the 5 it had", len(v.Items), cap(v.Items))
	}
	for i, it := range v.Items[:cap(v.Items)] {
		if it.SKU != "" || it.Qty != 0 || len(it.Notes) != 0 || len(it.Attrs) != 0 {
			t.Errorf("Items[:cap][%d] = %+v after Clear, want it cleared", i, it)
		}
		for _, n := range it.Notes[:cap(it.Notes)] {
			if n != "" {
				t.Errorf("Items[:cap][%d].Notes holds %q beyond its length", i, n)
			}
		}
	}
	if cap(v.Items[:5][4].Notes) != 4 || v.Items[:5][4].Attrs == nil {
		t.Error("an element's own slice or map lost its capacity")
	}
	if len(v.Tags) != 0 || len(v.Meta) != 0 || reflect.ValueOf(v.Tags).UnsafePointer() != reflect.ValueOf(tags).UnsafePointer() ||
		reflect.ValueOf(v.Meta).UnsafePointer() != reflect.ValueOf(meta).UnsafePointer() {
		t.Error("maps are not the same maps, emptied")
	}
	if len(v.Matrix) != 0 || cap(v.Matrix) != 2 || len(v.Matrix[:2][0]) != 0 {
		t.Errorf("Matrix = %v (cap %d), want len 0 with its rows emptied", v.Matrix, cap(v.Matrix))
	}
	if v.Fixed[0].SKU != "" || len(v.Fixed[0].Notes) != 0 || cap(v.Fixed[0].Notes) != 3 {
		t.Errorf("Fixed[0] = %+v, want cleared with Notes' capacity kept", v.Fixed[0])
	}
	if len(v.Ptrs) != 0 || v.Ptrs[:1][0] != nil {
		t.Error("a slice of pointers kept a pointer")
	}
	if !jsonpool.FastPaths {
		// Without unsafe, Clear zeroes unexported fields (see Clear).
		if v.hidden != nil {
			t.Errorf("hidden = %q, want the unexported field zeroed", v.hidden)
		}
	} else if len(v.hidden) != 0 || v.hidden[:1][0] != "" {
		t.Error("an unexported field was not cleared")
	}

	if jsonpool.FastPaths { // through reflect alone, Clear allocates
		pooltest.WantAllocs(t, 0, func() { jsonpool.Clear(&v) })
	}
}

type node struct {
	Name string `json:"name"`
	Kids []node `json:"kids"`
}

func TestUnmarshalReuseRecursiveType(t *testing.T) {
	var v node
	for _, doc := range []string{`{"name":"a","kids":[{"name":"b","kids":[{"name":"c"}]},{"name":"d"}]}`, `{"kids":[{}]}`, `{"name":"e"}`} {
		if err := jsonpool.UnmarshalReuse(&v, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		var want node
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		if !equalModEmpty(reflect.ValueOf(v), reflect.ValueOf(want)) {
			t.Fatalf("UnmarshalReuse(%s) = %+v, want %+v", doc, v, want)
		}
	}
}

// equalModEmpty is reflect.DeepEqual but for one difference, the one Clear
// documents: an empty slice or map equals a nil one.
func equalModEmpty(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equalModEmpty(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !equalModEmpty(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !equalModEmpty(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return equalModEmpty(a.Elem(), b.Elem())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int64, reflect.Int32:
		return a.Int() == b.Int()
	case reflect.Uint8:
		return a.Uint() == b.Uint()
	case reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	}
	panic("equalModEmpty: kind " + a.Kind().String())
}

// randomOrder returns a random document for reuseOrder: fields left out,
// null, empty and of every size from 0 to max items, sometimes with a
// type error or trailing garbage.
func randomOrder(r *rand.Rand, max int) string {
	str := func() string {
		return strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(6)) + []string{"", `\"`, "\u00e9", `\n`}[r.IntN(4)]
	}
	var b strings.Builder
	b.WriteString("{")
	sep := ""
	field := func(name string, val func()) {
		if r.IntN(4) == 0 {
			return // left out
		}
		b.WriteString(sep + `"` + name + `":`)
		sep = ","
		if r.IntN(10) == 0 {
			b.WriteString("null")
			return
		}
		val()
	}
	item := func() {
		b.WriteString("{")
		isep := ""
		if r.IntN(3) > 0 {
			fmt.Fprintf(&b, `"sku":"%s"`, str())
			isep = ","
		}
		if r.IntN(3) > 0 {
			fmt.Fprintf(&b, `%s"qty":%d`, isep, r.IntN(100))
			isep = ","
		}
		if r.IntN(3) > 0 {
			b.WriteString(isep + `"notes":[`)
			for j, n := 0, r.IntN(5); j < n; j++ {
				if j > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"%s"`, str())
			}
			b.WriteString("]")
			isep = ","
		}
		if r.IntN(3) > 0 {
			b.WriteString(isep + `"attrs":{`)
			for j, n := 0, r.IntN(4); j < n; j++ {
				if j > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"k%d":%d`, r.IntN(6), j)
			}
			b.WriteString("}")
		}
		b.WriteString("}")
	}
	list := func(each func()) func() {
		return func() {
			b.WriteString("[")
			for j, n := 0, r.IntN(max+1); j < n; j++ {
				if j > 0 {
					b.WriteString(",")
				}
				each()
			}
			b.WriteString("]")
		}
	}
	field("id", func() { fmt.Fprint(&b, r.IntN(1000)) })
	field("customer", func() { fmt.Fprintf(&b, `"%s"`, str()) })
	field("items", list(item))
	field("tags", func() {
		b.WriteString("{")
		for j, n := 0, r.IntN(max+1); j < n; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"t%d":"%s"`, r.IntN(2*max+1), str())
		}
		b.WriteString("}")
	})
	field("meta", func() {
		b.WriteString("{")
		for j, n := 0, r.IntN(3); j < n; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"m%d":`, j)
			item()
		}
		b.WriteString("}")
	})
	field("extra", func() { b.WriteString([]string{`{"a":[1,"x",{"b":null}]}`, `[1,2]`, `"s"`, `3.5`, `true`}[r.IntN(5)]) })
	field("raw", func() { b.WriteString([]string{`{"r":[1,2]}`, `"raw"`, `[]`}[r.IntN(3)]) })
	field("bytes", func() { b.WriteString([]string{`"aGVsbG8="`, `""`}[r.IntN(2)]) })
	field("matrix", list(func() { b.WriteString([]string{`[]`, `[1]`, `[1,2,3]`}[r.IntN(3)]) }))
	field("fixed", list(item))
	field("ptr", item)
	field("ptrs", list(item))
	b.WriteString("}")
	doc := b.String()
	switch r.IntN(20) {
	case 0:
		doc += " x" // trailing garbage
	case 1:
		doc = strings.Replace(doc, `"qty":`, `"qty":"`, 1) // a syntax error, or none
	case 2:
		doc = strings.Replace(doc, `"id":`, `"id":"x`+`",`+`"ignored":`, 1) // a type error
	}
	return doc
}

// TestUnmarshalReuseMatchesFreshDecode decodes random documents of sizes
// that rise and fall in sequence into one reused target, and requires
// each result to equal json.Unmarshal's into a fresh value (empty slices
// and maps equal to nil ones, as Clear documents), the same errors, and
// nothing of an earlier document in the spare capacity of Items.
func TestUnmarshalReuseMatchesFreshDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var v reuseOrder
	for i := 0; i < 2000; i++ {
		max := []int{0, 1, 3, 20, 60}[r.IntN(5)]
		doc := randomOrder(r, max)
		var want reuseOrder
		wantErr := json.Unmarshal([]byte(doc), &want)
		var err error
		if i%2 == 0 {
			err = jsonpool.UnmarshalReuse(&v, []byte(doc))
		} else {
			err = jsonpool.DecodeReuse(&v, strings.NewReader(doc))
		}
		if !sameErr(err, wantErr) {
			t.Fatalf("document %d %s: error %v, want %v", i, doc, err, wantErr)
		}
		if err != nil {
			want = reuseOrder{} // v is cleared on error
		}
		if !equalModEmpty(reflect.ValueOf(v), reflect.ValueOf(want)) {
			t.Fatalf("document %d %s:\n got %+v\nwant %+v", i, doc, v, want)
		}
		for j, it := range v.Items[len(v.Items):cap(v.Items)] {
			if !equalModEmpty(reflect.ValueOf(it), reflect.ValueOf(reuseItem{})) {
				t.Fatalf("document %d: Items[%d], beyond the length, holds %+v from an earlier document", i, len(v.Items)+j, it)
			}
		}
	}
}

// lineItem and purchase are an order request: N line items, each with
// strings, and a map of labels.
type lineItem struct {
	SKU   string   `json:"sku"`
	Name  string   `json:"name"`
	Qty   int      `json:"qty"`
	Price float64  `json:"price"`
	Tags  []string `json:"tags"`
}

type purchase struct {
	Customer string            `json:"customer"`
	Items    []lineItem        `json:"items"`
	Labels   map[string]string `json:"labels"`
}

// TestUnmarshalReuseAllocatesExactlyTheStrings checks that, once the
// target's capacities have grown, decoding a document with N line items
// allocates exactly its strings, where a fresh target also grows its
// slices and maps. The type has a map, so encoding/json decodes it, and
// the count depends on its engine (see perEngine): on the v2 engine the
// strings of the document decoded the call before come from the
// decoder's string table, and only those whose slot another string of
// the document shares are allocated again (v2 below: 0 of 5 strings, 22 of
// 41, 355 of 401, and 26 with the labels' map).
func TestUnmarshalReuseAllocatesExactlyTheStrings(t *testing.T) {
	if !jsonpool.FastPaths {
		t.Skip("built without the fast paths (poolkit_nounsafe), Clear allocates")
	}
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, c := range []struct {
		n      int
		labels bool
		v2     float64 // the count on the v2 engine
	}{{1, false, 0}, {10, false, 22}, {100, false, 355}, {10, true, 26}} {
		n := c.n
		var b strings.Builder
		b.WriteString(`{"customer":"ann","items":[`)
		strs := 1
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"sku":"sku-%d","name":"item %d","qty":%d,"price":%d.5,"tags":["a%d","b%d"]}`, i, i, i, i, i, i)
			strs += 4
		}
		b.WriteString(`]`)
		want := strs
		if c.labels {
			b.WriteString(`,"labels":{"env":"prod","zone":"eu"}`)
			// Two keys and two values, and encoding/json v1's own cost
			// of a map: a reflect.New for the element of each object
			// and for each key.
			strs += 4
			want = strs + 1 + 2
		}
		b.WriteString(`}`)
		doc := []byte(b.String())

		var v purchase
		for i := 0; i < 3; i++ { // grow the capacities, warm the pools
			if err := jsonpool.DecodeReuse(&v, bytes.NewReader(doc)); err != nil {
				t.Fatal(err)
			}
		}
		r := bytes.NewReader(nil)
		fns := map[string]func() error{
			"UnmarshalReuse": func() error { return jsonpool.UnmarshalReuse(&v, doc) },
		}
		if n == 10 && !c.labels {
			// DecodeReuse adds a read buffer from a bytebuf.Pool, which
			// calibrates to the sizes it serves over about 16,000 Puts
			// and drops buffers far larger than most: measure it on one
			// size, past the calibration.
			fns["DecodeReuse"] = func() error { r.Reset(doc); return jsonpool.DecodeReuse(&v, r) }
			for i := 0; i < 20000; i++ {
				if err := fns["DecodeReuse"](); err != nil {
					t.Fatal(err)
				}
			}
		}
		for name, f := range fns {
			var err error
			if !pooltest.WantAllocs(t, perEngine(float64(want), c.v2), func() {
				if e := f(); e != nil {
					err = e
				}
			}) {
				t.Logf("%s of %d line items (labels %v, %d strings): want %v allocations", name, n, c.labels, strs, perEngine(float64(want), c.v2))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		var fresh purchase
		if err := json.Unmarshal(doc, &fresh); err != nil || !equalModEmpty(reflect.ValueOf(v), reflect.ValueOf(fresh)) {
			t.Fatalf("reused target differs from json.Unmarshal's: %v", err)
		}
	}
}

// The recipe the docs give: a pool whose reset is Clear hands back values
// that hold nothing of their last use but keep their capacity.
func TestClearAsPoolReset(t *testing.T) {
	p := pool.New(func() *purchase { return new(purchase) }, pool.WithReset(jsonpool.Clear[purchase]))
	for i := 0; i < 1000; i++ { // past checked mode's quarantine of 256 values
		v := p.Get()
		if v.Customer != "" || len(v.Items) != 0 || len(v.Labels) != 0 {
			t.Fatalf("Get returned %+v, want a cleared value", *v)
		}
		for _, it := range v.Items[:cap(v.Items)] {
			if it.SKU != "" || len(it.Tags) != 0 {
				t.Fatalf("a cleared value holds %+v beyond its length", it)
			}
		}
		if cap(v.Items) > 0 {
			return // reused, cleared, capacity kept
		}
		if err := jsonpool.UnmarshalReuse(v, []byte(`{"customer":"c","items":[{"sku":"s","tags":["t"]}],"labels":{"a":"b"}}`)); err != nil {
			t.Fatal(err)
		}
		p.Put(v)
	}
	t.Fatal("the pool never handed a value back with its capacity")
}
