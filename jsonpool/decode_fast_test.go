package jsonpool_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// The types of the fast decode path's differential tests: everything the
// fast path decodes itself, and some of what it leaves to encoding/json.

// fdOrder is the service benchmark's order, the fast path's main case.
type fdOrder struct {
	ID         int64     `json:"id"`
	CustomerID int64     `json:"customer_id"`
	Email      string    `json:"email"`
	Name       string    `json:"name"`
	Currency   string    `json:"currency"`
	Coupon     string    `json:"coupon"`
	Note       string    `json:"note"`
	Express    bool      `json:"express"`
	CreatedAt  time.Time `json:"created_at"`
	Shipping   fdAddress `json:"shipping"`
	Items      []fdItem  `json:"items"`
}

type fdAddress struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

type fdItem struct {
	SKU       string  `json:"sku"`
	Name      string  `json:"name"`
	Qty       int64   `json:"qty"`
	UnitCents int64   `json:"unit_cents"`
	WeightKg  float64 `json:"weight_kg"`
}

// fdNumbers has every number kind, with JSON names that differ from the
// Go names only by case and names given by the Go name.
type fdNumbers struct {
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	F32 float32
	F64 float64
	B   bool
	S   string `json:"s,omitempty"`
	K   string `json:"k"`
	X   string `json:"x_y"`
	Z   string `json:"Z-z,omitzero"`
	Cnt myInt  `json:"cnt"`
	Nam myStr  `json:"nam"`

	hidden string
	Skip   string `json:"-"`
}

var _ = fdNumbers{}.hidden // set by no decode: encoding/json's rules skip it

type (
	myInt int32
	myStr string
)

// fdNested has pointers, slices of slices, a recursive type and times.
type fdNested struct {
	P     *fdAddress            `json:"p"`
	PI    *int                  `json:"pi"`
	PT    *time.Time            `json:"pt"`
	T     time.Time             `json:"t"`
	Tags  []string              `json:"tags"`
	Grid  [][]int16             `json:"grid"`
	PS    []*fdItem             `json:"ps"`
	Tree  *fdTree               `json:"tree"`
	Addrs []fdAddress           `json:"addrs"`
	Nums  []fdNumbers           `json:"nums"`
	Fs    []float32             `json:"fs"`
	Ts    []time.Time           `json:"ts"`
	Inner struct{ A, B string } `json:"inner"`
}

type fdTree struct {
	V    int      `json:"v"`
	Kids []fdTree `json:"kids"`
}

// fdMixed holds types the fast path leaves to encoding/json, so the whole
// type goes the old way.
type fdMixed struct {
	A   string          `json:"a"`
	M   map[string]int  `json:"m"`
	Any any             `json:"any"`
	Raw json.RawMessage `json:"raw"`
	B   []byte          `json:"b"`
	Arr [2]int          `json:"arr"`
	Q   int             `json:"q,string"`
	D   time.Duration   `json:"d"`
	N   json.Number     `json:"n"`
}

// fdHostile are inputs for every differential test and the fuzz seeds.
var fdHostile = []string{
	``, ` `, `null`, ` null `, `{}`, `[]`, `1`, `"x"`, `{} `, `{}x`, `{}{}`, `{"id":1}}`,
	`{"id":1,"items":[]}`, `{"items":null}`, `{"items":[null,{"qty":null}]}`,
	`{"id":null,"email":null,"express":null,"created_at":null,"shipping":null}`,
	`{"id":1.0}`, `{"id":1e2}`, `{"id":-0}`, `{"id":"1"}`, `{"id":true}`, `{"id":{}}`,
	`{"id":9223372036854775807}`, `{"id":9223372036854775808}`, `{"id":-9223372036854775808}`,
	`{"id":-9223372036854775809}`, `{"id":99999999999999999999999}`,
	`{"items":[{"weight_kg":1e400}]}`, `{"items":[{"weight_kg":-0}]}`, `{"items":[{"weight_kg":1e-400}]}`,
	`{"items":[{"weight_kg":4.9e-324}]}`, `{"items":[{"weight_kg":"1"}]}`,
	`{"email":"a\"b\\c\/d\b\f\n\r\t"}`, `{"email":"\u00e9\u20ac\ud83d\ude00"}`,
	`{"email":"\ud83d"}`, `{"email":"\ude00"}`, `{"email":"\ud83d\ud83d\ude00"}`, `{"email":"\ud83dx"}`,
	`{"email":"\ud83d\u0041"}`, `{"email":"` + "\xff\xfe" + `"}`, `{"email":"` + "\xed\xa0\x80" + `"}`,
	`{"email":"` + "caf\xc3\xa9 \xe2\x82" + `"}`, `{"email":"\u0000"}`, `{"email":"\uFFFD"}`,
	`{"EMAIL":"up"}`, `{"Email":"a","email":"b"}`, `{"email":"b","Email":"a"}`,
	`{"\u0065mail":"esc"}`, `{"e\u006dail":"esc","email":"plain"}`,
	`{"K":"kelvin?"}`, "{\"\u212a\":\"kelvin\"}", "{\"\u017f\":\"long s\"}", "{\"\u0130\":\"dotted I\"}",
	"{\"\u0131\":\"dotless i\"}", `{"x_y":"1","XY":"2","x-y":"3","X_Y":"4"}`, `{"X_Y":"1","XY":"2"}`, `{"xy":"2"}`, `{"x-y":"3"}`, `{"zz":"1"}`, `{"Z_z":"1"}`, `{"z-z":"1","Zz":"2","z_z":"3"}`,
	`{"items":[{"sku":"a"}],"items":[{"name":"b"}]}`, `{"items":[{"sku":"a"},{"sku":"b"}],"items":[{"name":"c"}]}`,
	`{"shipping":{"street":"a"},"shipping":{"city":"b"}}`, `{"items":[1],"items":null}`,
	`{"tags":["a","b"],"tags":["c"],"tags":["d","e","f"]}`,
	`{"p":{"city":"x"},"p":null,"p":{"zip":"y"}}`, `{"pi":1,"pi":2}`, `{"pi":null}`, `{"pt":null}`,
	`{"created_at":"2024-01-02T03:04:05Z"}`, `{"created_at":"2024-01-02T03:04:05.123456789+02:00"}`,
	`{"created_at":"2024-01-02"}`, `{"created_at":1}`, `{"created_at":"\u0032024-01-02T03:04:05Z"}`,
	`{"t":"2024-13-02T03:04:05Z"}`, `{"t":"0000-01-01T00:00:00Z"}`, `{"t":"2024-01-02T03:04:05+24:00"}`,
	`{"pt":"2024-01-02T03:04:05Z","ts":["2024-01-02T03:04:05Z",null]}`,
	`{"grid":[[1,2],[],null,[32767,-32768]]}`, `{"grid":[[32768]]}`, `{"fs":[3.4e38,3.5e38]}`, `{"fs":[1e-46]}`,
	`{"tree":{"v":1,"kids":[{"v":2,"kids":[{"v":3}]},{"kids":[]}]}}`,
	`{"inner":{"a":"1","B":"2"}}`, `{"unknown":{"a":[1,{"b":"]}"}],"c":"\""},"tags":["x"]}`,
	`{"I8":127,"I16":-32768,"U8":255,"U16":65535,"U32":4294967295,"U64":18446744073709551615}`,
	`{"I8":128}`, `{"I8":-128,"I16":-1,"I32":-2147483648}`, `{"I8":-129}`, `{"I32":-2147483649}`, `{"U8":-1}`, `{"U":-0}`, `{"U64":18446744073709551616}`, `{"F32":1e39}`, `{"F32":16777217}`,
	`{"F64":1.7976931348623157e308}`, `{"F64":1.8e308}`, `{"B":true,"B":false}`, `{"B":1}`,
	`{"cnt":5,"nam":"n"}`, `{"hidden":"h","Skip":"s","-":"dash"}`,
	`{"a":"x","m":{"k":1},"q":"5","d":5,"n":5}`, `{"q":5}`, `{"b":"aGk="}`,
	"\t{ \"id\" : 1 , \"items\" : [ { \"qty\" : 2 } ] }\n", `{"id":1,}`, `{"id":01}`, `{"id":1 2}`,
	strings.Repeat(`{"tree":`, 1) + strings.Repeat(`{"kids":[`, 600) + strings.Repeat(`]}`, 600) + `}`,
	`{"tree":` + strings.Repeat(`{"kids":[`, 400) + strings.Repeat(`]}`, 400) + `}`,
	strings.Repeat(`[`, 1100) + strings.Repeat(`]`, 1100),
}

// checkDecode decodes data with every jsonpool decode function into a T
// and compares each with json.Unmarshal into a fresh T: both fail with the
// same error, or both succeed with equal values. reused, dirty from the
// previous input, is decoded into with UnmarshalReuse.
func checkDecode[T any](t *testing.T, reused *T, data []byte) {
	t.Helper()
	var want T
	wantErr := json.Unmarshal(data, &want)
	// exact is reflect.DeepEqual, and floats equal bit for bit.
	exact := func(got *T) bool {
		return reflect.DeepEqual(*got, want) && fdEqual(reflect.ValueOf(got).Elem(), reflect.ValueOf(&want).Elem())
	}

	p := jsonpool.NewPool[T]()
	got, err := jsonpool.Unmarshal(p, data)
	if !sameDecodeErr(err, wantErr) {
		t.Fatalf("%T: Unmarshal(%q) error = %#v, want %#v", want, data, err, wantErr)
	}
	if err == nil && !exact(got) {
		t.Fatalf("%T: Unmarshal(%q) =\n%+v\nwant\n%+v", want, data, *got, want)
	}

	got2, err := jsonpool.Decode(p, strings.NewReader(string(data)))
	if !sameDecodeErr(err, wantErr) {
		t.Fatalf("%T: Decode(%q) error = %#v, want %#v", want, data, err, wantErr)
	}
	if err == nil && !exact(got2) {
		t.Fatalf("%T: Decode(%q) =\n%+v\nwant\n%+v", want, data, *got2, want)
	}

	err = jsonpool.UnmarshalReuse(reused, data)
	if !sameDecodeErr(err, wantErr) {
		t.Fatalf("%T: UnmarshalReuse(%q) error = %v, want %v", want, data, err, wantErr)
	}
	if err != nil {
		var zero T
		want = zero
	}
	if !fdEqual(reflect.ValueOf(reused).Elem(), reflect.ValueOf(&want).Elem()) {
		t.Fatalf("%T: UnmarshalReuse(%q) =\n%+v\nwant\n%+v", want, data, *reused, want)
	}
	var fresh T
	err = jsonpool.DecodeReuse(&fresh, strings.NewReader(string(data)))
	if !sameDecodeErr(err, wantErr) {
		t.Fatalf("%T: DecodeReuse(%q) error = %v, want %v", want, data, err, wantErr)
	}
	if !fdEqual(reflect.ValueOf(&fresh).Elem(), reflect.ValueOf(&want).Elem()) {
		t.Fatalf("%T: DecodeReuse(%q) into a zero value =\n%+v\nwant\n%+v", want, data, fresh, want)
	}
}

// fdTargets are the reused targets of the differential tests, one per type.
type fdTargets struct {
	order   fdOrder
	numbers fdNumbers
	nested  fdNested
	mixed   fdMixed
	items   []fdItem
	strs    []string
}

func (r *fdTargets) check(t *testing.T, data []byte) {
	t.Helper()
	checkDecode(t, &r.order, data)
	checkDecode(t, &r.numbers, data)
	checkDecode(t, &r.nested, data)
	checkDecode(t, &r.mixed, data)
	checkDecode(t, &r.items, data)
	checkDecode(t, &r.strs, data)
}

// fdFull is a document that fills every field of every test type, decoded
// before each hostile input so that the reused targets are dirty.
const fdFull = `{"id":7,"customer_id":8,"email":"a@b","name":"N","currency":"EUR","coupon":"C","note":"n",
"express":true,"created_at":"2020-01-01T00:00:00Z","shipping":{"street":"s","city":"c","zip":"z","country":"DE"},
"items":[{"sku":"1","name":"a","qty":1,"unit_cents":2,"weight_kg":0.5},{"sku":"2"},{"sku":"3"}],
"I":1,"I8":2,"U64":3,"F32":1.5,"B":true,"s":"s","k":"k","x_y":"xy","Z-z":"zz","cnt":3,"nam":"nm",
"p":{"city":"pc"},"pi":4,"pt":"2021-01-01T00:00:00Z","t":"2022-01-01T00:00:00Z","tags":["t1","t2"],
"grid":[[1],[2,3]],"ps":[{"sku":"p"},null],"tree":{"v":1,"kids":[{"v":2}]},"addrs":[{"zip":"1"}],
"nums":[{"I":1},{"s":"x"}],"fs":[1,2],"ts":["2023-01-01T00:00:00Z"],"inner":{"A":"a"},
"a":"a","m":{"k":1},"any":[1],"raw":{"r":1},"b":"aGk=","arr":[1,2],"q":"5","d":6,"n":7}`

func TestFastDecodeHostile(t *testing.T) {
	var r fdTargets
	for _, in := range fdHostile {
		r.check(t, []byte(fdFull))
		r.check(t, []byte(in))
		// As the element of an array, for []fdItem and []string.
		r.check(t, []byte("["+in+"]"))
	}
}

// FuzzFastDecode checks, on any input, that every decode function of
// jsonpool agrees with json.Unmarshal, for types the fast path decodes and
// one it leaves to encoding/json, into fresh and into dirty reused targets.
//
//	go test -run '^$' -fuzz FuzzFastDecode -fuzztime 3m ./jsonpool
func FuzzFastDecode(f *testing.F) {
	for _, in := range fdHostile {
		f.Add([]byte(in))
	}
	f.Add([]byte(fdFull))
	f.Add([]byte(fdOrderJSON(rand.New(rand.NewPCG(1, 2)), 5)))
	var r fdTargets
	f.Fuzz(func(t *testing.T, data []byte) {
		r.check(t, data)
	})
}

// fdOrderJSON returns a random order of n items as a JSON document.
func fdOrderJSON(rng *rand.Rand, n int) []byte {
	o := randomValue[fdOrder](rng)
	o.Items = o.Items[:0]
	for i := 0; i < n; i++ {
		o.Items = append(o.Items, randomValue[fdItem](rng))
	}
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return b
}

// randomValue returns a random T, built with reflect.
func randomValue[T any](rng *rand.Rand) T {
	var v T
	fillRandom(rng, reflect.ValueOf(&v).Elem(), 0)
	return v
}

func fillRandom(rng *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		sec := rng.Int64N(400 * 365 * 24 * 3600)
		t := time.Unix(sec-100*365*24*3600, rng.Int64N(1e9)*int64(rng.IntN(2)))
		if rng.IntN(2) == 0 {
			t = t.UTC()
		} else {
			t = t.In(time.FixedZone("", (rng.IntN(48)-24)*1800))
		}
		v.Set(reflect.ValueOf(t))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		n := int64(rng.Uint64() >> (64 - bits))
		if rng.IntN(3) == 0 {
			n = int64(rng.IntN(1000))
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rng.Uint64() >> (64 - v.Type().Bits()))
	case reflect.Float32:
		v.SetFloat(float64(math.Float32frombits(rng.Uint32())))
		if math.IsNaN(v.Float()) || math.IsInf(v.Float(), 0) {
			v.SetFloat(1.25)
		}
	case reflect.Float64:
		f := math.Float64frombits(rng.Uint64())
		if rng.IntN(2) == 0 {
			f = float64(rng.IntN(100000)) / 100
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = -0.5
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(randomString(rng))
	case reflect.Pointer:
		if rng.IntN(3) > 0 && depth < 4 {
			v.Set(reflect.New(v.Type().Elem()))
			fillRandom(rng, v.Elem(), depth+1)
		}
	case reflect.Slice:
		if rng.IntN(5) == 0 || depth >= 4 {
			return
		}
		n := rng.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			fillRandom(rng, v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillRandom(rng, v.Index(i), depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillRandom(rng, v.Field(i), depth+1)
			}
		}
	}
}

// randomString returns a short string with some of every kind of rune
// JSON escapes or encoding/json replaces.
func randomString(rng *rand.Rand) string {
	const runes = "aZ09 _-\"\\/\b\f\n\r\t\x00\x1f<>&\u2028\u00e9\u212a\u017f\U0001F600"
	rs := []rune(runes)
	var b strings.Builder
	for n := rng.IntN(12); n > 0; n-- {
		switch rng.IntN(10) {
		case 0:
			b.WriteByte(byte(0x80 + rng.IntN(0x80))) // invalid UTF-8
		case 1, 2, 3:
			b.WriteRune(rs[rng.IntN(len(rs))])
		default:
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
	}
	return b.String()
}

// TestFastDecodeRoundTrip marshals random values of every test type and
// checks that jsonpool decodes them as json.Unmarshal does.
func TestFastDecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	var r fdTargets
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		for _, v := range []any{
			randomValue[fdOrder](rng), randomValue[fdNumbers](rng), randomValue[fdNested](rng),
			randomValue[[]fdItem](rng), randomValue[[]string](rng),
		} {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			r.check(t, b)
		}
	}
}

// TestFastDecodeAllocs asserts that decoding an order of n items into a
// warmed target with UnmarshalReuse allocates exactly its strings of two
// bytes or more (Go keeps strings of one byte in a static table), escaped
// or not, and nothing else; and that Unmarshal allocates those and its
// slice's growth.
func TestFastDecodeAllocs(t *testing.T) {
	if !jsonpool.FastPaths {
		t.Skip("built without the fast paths (poolkit_nounsafe)")
	}
	pooltest.SkipIfRace(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 50} {
		o := randomValue[fdOrder](rng)
		o.Items = nil
		for i := 0; i < n; i++ {
			o.Items = append(o.Items, randomValue[fdItem](rng))
		}
		o.Email = "esc\"aped\u00e9\n" // escapes and non-ASCII
		o.Note = ""
		o.CreatedAt = time.Date(2024, 5, 6, 7, 8, 9, 123, time.UTC) // a "Z" time
		data, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		countStrings(reflect.ValueOf(o), &want)
		var v fdOrder
		if err := jsonpool.UnmarshalReuse(&v, data); err != nil {
			t.Fatal(err)
		}
		var check fdOrder
		if err := json.Unmarshal(data, &check); err != nil || !reflect.DeepEqual(v, check) {
			t.Fatalf("n=%d: UnmarshalReuse = %+v, want %+v (%v)", n, v, check, err)
		}
		got := testing.AllocsPerRun(50, func() {
			if err := jsonpool.UnmarshalReuse(&v, data); err != nil {
				t.Fatal(err)
			}
		})
		if got != float64(want) {
			t.Errorf("n=%d: UnmarshalReuse allocates %v times, want %d (its strings)", n, got, want)
		}
		p := jsonpool.NewPool[fdOrder]()
		gotU := testing.AllocsPerRun(50, func() {
			r, err := jsonpool.Unmarshal(p, data)
			if err != nil {
				t.Fatal(err)
			}
			p.Put(r)
		})
		if gotU < float64(want) || gotU > float64(want+8) {
			t.Errorf("n=%d: Unmarshal allocates %v times, want its %d strings and a few growths of its slice", n, gotU, want)
		}
	}
}

// countStrings adds to n the strings in v that a decode allocates: those
// of two bytes or more once decoded.
func countStrings(v reflect.Value, n *int) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if len(s) >= 2 {
			*n++
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			countStrings(v.Field(i), n)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			countStrings(v.Index(i), n)
		}
	}
}

// fdEqual reports whether a and b are deeply equal but that a slice or map
// may be empty in a where it is nil in b, as after UnmarshalReuse. Unlike
// equalModEmpty it knows every kind the fast path's test types hold.
func fdEqual(a, b reflect.Value) bool {
	if a.Type() == reflect.TypeFor[time.Time]() {
		return reflect.DeepEqual(a.Interface(), b.Interface())
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Map:
		if a.IsNil() != b.IsNil() && a.Len() == 0 && !b.IsNil() {
			return false // a nil where b is not: never right
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Map {
			for _, k := range a.MapKeys() {
				bv := b.MapIndex(k)
				if !bv.IsValid() || !fdEqual(a.MapIndex(k), bv) {
					return false
				}
			}
			return true
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !fdEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !fdEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return fdEqual(a.Elem(), b.Elem())
	case reflect.Interface:
		return reflect.DeepEqual(a.Interface(), b.Interface())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		// Bit for bit: -0 is not 0.
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	}
	panic("fdEqual: kind " + a.Kind().String())
}

// TestFastDecodeConcurrent decodes orders with escaped strings on many
// goroutines at once through one pool of values and the fast path's pooled
// scratch buffers, with collections running: a value or a scratch buffer
// reaching two goroutines, or a pointer the collector missed, shows up as a
// wrong order here and as a race under -race.
func TestFastDecodeConcurrent(t *testing.T) {
	const docs = 16
	rng := rand.New(rand.NewPCG(7, 8))
	inputs := make([][]byte, docs)
	wants := make([]fdOrder, docs)
	for i := range inputs {
		inputs[i] = fdOrderJSON(rng, i%9)
		if err := json.Unmarshal(inputs[i], &wants[i]); err != nil {
			t.Fatal(err)
		}
	}
	p := jsonpool.NewPool[fdOrder]()
	pooltest.CollectConcurrently(t) // while the goroutines decode
	pooltest.Stress(t, 8, 200, func(g int, holders *sync.Map) (func() error, error) {
		k := (g * 7) % docs
		v, err := jsonpool.Unmarshal(p, inputs[k])
		if err != nil {
			return nil, err
		}
		if err := pooltest.Claim(holders, v, g); err != nil {
			return nil, err
		}
		// A reused target of the goroutine's own, decoded into while v
		// is held.
		var r fdOrder
		if err := jsonpool.UnmarshalReuse(&r, inputs[(k+1)%docs]); err != nil {
			return nil, err
		}
		return func() error {
			defer p.Put(v)
			holders.Delete(v)
			if !reflect.DeepEqual(*v, wants[k]) {
				return fmt.Errorf("goroutine %d: order %d decoded as %+v, want %+v", g, k, *v, wants[k])
			}
			if !fdEqual(reflect.ValueOf(&r).Elem(), reflect.ValueOf(&wants[(k+1)%docs]).Elem()) {
				return fmt.Errorf("goroutine %d: order %d reused decoded as %+v", g, (k+1)%docs, r)
			}
			return nil
		}, nil
	})
}

// TestLargeTypeLookupAllocatesNothing checks that finding the plans of a
// type larger than an interface's inline room allocates nothing: on Go
// 1.24, reflect.TypeFor[T] boxes a zero T to find its type, an allocation
// of 1 KiB for student, which Clear and the fast path must not make per
// call. (Go 1.26 finds the type without a value, so the test fails only
// under go1.24 without the fix.)
func TestLargeTypeLookupAllocatesNothing(t *testing.T) {
	pooltest.SkipIfRace(t)
	var s student
	pooltest.WantAllocs(t, 0, func() { jsonpool.Clear(&s) })
	data := []byte(`{"Name":"","Age":25}`)
	pooltest.WantAllocs(t, 0, func() {
		if err := jsonpool.UnmarshalReuse(&s, data); err != nil {
			t.Fatal(err)
		}
	})
	// A type the fast path decodes, as large.
	var big struct{ A, B, C, D, E, F, G, H fdOrder }
	bigData := []byte(`{"A":{"id":1},"H":{"express":true}}`)
	pooltest.WantAllocs(t, 0, func() {
		if err := jsonpool.UnmarshalReuse(&big, bigData); err != nil {
			t.Fatal(err)
		}
	})
}
