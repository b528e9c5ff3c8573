package jsonpool_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// The differential tests of numeric arrays and slices: every integer and
// float kind, in Go arrays (which encoding/json fills from the front,
// skipping extra elements and zeroing missing ones) and slices, at the top
// and in structs, against json.Unmarshal, with hostile numbers.

// fdArrays holds arrays and slices of every number kind, and arrays of
// other kinds.
type fdArrays struct {
	Bytes  [4]byte     `json:"bytes"`
	I8     [3]int8     `json:"i8"`
	I16    []int16     `json:"i16"`
	I32    [2]int32    `json:"i32"`
	I64    []int64     `json:"i64"`
	I      [3]int      `json:"i"`
	Is     []int       `json:"is"`
	U      []uint      `json:"u"`
	U8s    [][2]uint8  `json:"u8s"`
	U16    [2]uint16   `json:"u16"`
	U32    []uint32    `json:"u32"`
	U64    [2]uint64   `json:"u64"`
	F32    [2]float32  `json:"f32"`
	F32s   []float32   `json:"f32s"`
	F64    [3]float64  `json:"f64"`
	F64s   []float64   `json:"f64s"`
	Empty  [0]int      `json:"empty"`
	Grid   [2][3]int16 `json:"grid"`
	PA     *[2]int     `json:"pa"`
	AP     [2]*int     `json:"ap"`
	Named  fdInts      `json:"named"`
	Pairs  [2]fdPair   `json:"pairs"`
	S      [2]string   `json:"s"`
	B      [2]bool     `json:"b"`
	Slices [2][]int    `json:"slices"`
}

type (
	fdInts [3]myInt
	fdPair struct {
		X int16   `json:"x"`
		Y float32 `json:"y"`
	}
)

// fdArraysFull fills every field of fdArrays, so that a target decoded
// from it before a hostile input is dirty everywhere.
const fdArraysFull = `{"bytes":[1,2,3,4],"i8":[-1,-2,-3],"i16":[1,2,3,4,5],"i32":[7,8],"i64":[9,9,9],
"i":[4,5,6],"is":[1,2,3,4,5,6,7,8],"u":[1,2],"u8s":[[1,2],[3,4],[5,6]],"u16":[1,2],"u32":[3,4,5],
"u64":[6,7],"f32":[1.5,-0],"f32s":[2.5,3],"f64":[1,2,3],"f64s":[0.1,0.2,0.3,0.4],"empty":[1],
"grid":[[1,2,3],[4,5,6]],"pa":[1,2],"ap":[1,2],"named":[1,2,3],"pairs":[{"x":1,"y":2},{"x":3,"y":4}],
"s":["a","b"],"b":[true,true],"slices":[[1,2],[3]]}`

// numberTargets are the reused targets of the numeric differential tests:
// fdArrays, and arrays and slices of numbers at the top.
type numberTargets struct {
	arrays fdArrays
	ints   [3]int
	bytes  [4]uint8
	i8s    []int8
	u64s   []uint64
	f64s   []float64
	f32s   [2]float32
	grid   [2][2]int8
}

func (r *numberTargets) check(t *testing.T, data []byte) {
	t.Helper()
	checkDecode(t, &r.arrays, data)
	checkDecode(t, &r.ints, data)
	checkDecode(t, &r.bytes, data)
	checkDecode(t, &r.i8s, data)
	checkDecode(t, &r.u64s, data)
	checkDecode(t, &r.f64s, data)
	checkDecode(t, &r.f32s, data)
	checkDecode(t, &r.grid, data)
}

// fill decodes documents that fill every target, so that the next check
// starts from dirty reused targets.
func (r *numberTargets) fill(t *testing.T) {
	t.Helper()
	for _, in := range []string{fdArraysFull, `[1,2,3,4,5,6,7,8,9]`, `[[1,2],[3,4],[5,6]]`} {
		r.check(t, []byte(in))
	}
}

// sameDecodeErr reports whether err is want: the same type and message,
// and for a *json.SyntaxError the same offset, for a
// *json.UnmarshalTypeError the same value, type, offset, struct and field.
func sameDecodeErr(err, want error) bool {
	if err == nil || want == nil {
		return err == want
	}
	if reflect.TypeOf(err) != reflect.TypeOf(want) || err.Error() != want.Error() {
		return false
	}
	var se, wse *json.SyntaxError
	if errors.As(err, &se) != errors.As(want, &wse) || se != nil && se.Offset != wse.Offset {
		return false
	}
	var te, wte *json.UnmarshalTypeError
	if errors.As(err, &te) != errors.As(want, &wte) {
		return false
	}
	return te == nil || te.Value == wte.Value && te.Type == wte.Type && te.Offset == wte.Offset &&
		te.Struct == wte.Struct && te.Field == wte.Field
}

// numberTokens are numbers at and past the bounds of every kind, in and
// out of JSON's syntax, and values of other JSON types.
var numberTokens = []string{
	"0", "-0", "1", "-1", "00", "01", "-01", "007", "1.0", "1.5", "-1.5", "1e0", "1E2", "1e+2", "-1e-2",
	"+1", ".5", "5.", "-", "--1", "0x10", "1_000", "Infinity", "NaN", "1e", "1e+", "0.", "-.5",
	"127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769", "65535", "65536",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "99999999999999999999", "-99999999999999999999",
	"1000000000000000000000000000000", "0000000000000000000001",
	"1e400", "-1e400", "1e-400", "-1e-400", "4.9e-324", "5e-324", "2.4703282292062327e-324",
	"2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623159e308", "1.8e308",
	"3.4028234663852886e38", "3.4028235677973366e38", "3.4028236e38", "3.5e38", "1.401298464324817e-45",
	"7e-46", "7.1e-46", "9007199254740993", "9007199254740992.5", "18014398509481985", "0.1",
	"0.30000000000000004", "123456789012345678901234567890", "-0.0", "0.0e0", "-0e-0", "1E-7",
	"123456789.123456789", "0.000001", "1e22", "1e23", "8.98846567431158e307", "16777217", "16777216.5",
	"null", "true", "false", `"1"`, `""`, `"-0"`, "[]", "{}", "[1]", `{"x":1}`, "nul", "tru",
	" 1", "1 ", "\t-2\n", "\r0", " null ",
}

// randomNumber returns a number in JSON's syntax: an integer in the range
// of a random size, signed or not, or a float of random digits and
// exponent.
func randomNumber(rng *rand.Rand) string {
	switch rng.IntN(4) {
	case 0:
		bits := []uint{8, 16, 32, 64}[rng.IntN(4)]
		return strconv.FormatInt(int64(rng.Uint64()>>(64-bits+1))-int64(rng.IntN(2))<<(bits-1), 10)
	case 1:
		bits := []uint{8, 16, 32, 64}[rng.IntN(4)]
		return strconv.FormatUint(rng.Uint64()>>(64-bits), 10)
	case 2:
		return strconv.Itoa(rng.IntN(1000) - 100)
	default:
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = rng.NormFloat64()
		}
		if rng.IntN(2) == 0 {
			f = float64(rng.IntN(2000000)-1000000) / math.Pow(10, float64(rng.IntN(8)))
		}
		return strconv.FormatFloat(f, []byte("gef")[rng.IntN(3)], -1, []int{32, 64}[rng.IntN(2)])
	}
}

// randomElement returns an array element: mostly a random number, else
// a hostile token.
func randomElement(rng *rand.Rand) string {
	if rng.IntN(10) < 7 {
		return randomNumber(rng)
	}
	return numberTokens[rng.IntN(len(numberTokens))]
}

// randomArray returns a JSON array of up to max elements made by elem,
// with white space and, rarely, a missing or extra comma; or a hostile
// token in its place.
func randomArray(rng *rand.Rand, max int, elem func() string) string {
	if rng.IntN(12) == 0 {
		return numberTokens[rng.IntN(len(numberTokens))]
	}
	var b strings.Builder
	b.WriteByte('[')
	n := rng.IntN(max + 1)
	for i := 0; i < n; i++ {
		if i > 0 {
			switch rng.IntN(40) {
			case 0:
				// no comma
			case 1:
				b.WriteString(",,")
			case 2, 3:
				b.WriteString(" ,\n")
			default:
				b.WriteByte(',')
			}
		}
		b.WriteString(elem())
	}
	if rng.IntN(40) == 0 {
		b.WriteByte(',')
	}
	b.WriteByte(']')
	return b.String()
}

// randomNumbersDoc returns a random document for the numeric targets: an
// fdArrays object of some of its members (repeated, sometimes, or in
// another case), or an array of numbers or of arrays; sometimes cut short
// or followed by garbage.
func randomNumbersDoc(rng *rand.Rand) string {
	num := func() string { return randomElement(rng) }
	row := func() string { return randomArray(rng, 4, num) }
	var doc string
	switch rng.IntN(4) {
	case 0:
		doc = randomArray(rng, 6, num)
	case 1:
		doc = randomArray(rng, 4, row)
	default:
		keys := []string{"bytes", "i8", "i16", "i32", "i64", "i", "is", "u", "u8s", "u16", "u32", "u64",
			"f32", "f32s", "f64", "f64s", "empty", "grid", "pa", "ap", "named", "pairs", "s", "b", "slices", "x"}
		var b strings.Builder
		b.WriteByte('{')
		for n := rng.IntN(6); n >= 0; n-- {
			key := keys[rng.IntN(len(keys))]
			if rng.IntN(15) == 0 {
				key = strings.ToUpper(key)
			}
			b.WriteString(strconv.Quote(key) + ":")
			switch key {
			case "u8s", "grid", "slices":
				b.WriteString(randomArray(rng, 4, row))
			case "pairs":
				b.WriteString(randomArray(rng, 3, func() string { return `{"x":` + num() + `,"y":` + num() + `}` }))
			case "s":
				b.WriteString(randomArray(rng, 3, func() string { return strconv.Quote(num()) }))
			default:
				b.WriteString(randomArray(rng, 6, num))
			}
			if n > 0 {
				b.WriteByte(',')
			}
		}
		b.WriteByte('}')
		doc = b.String()
	}
	switch rng.IntN(30) {
	case 0:
		doc = doc[:rng.IntN(len(doc)+1)]
	case 1:
		doc += []string{"x", " ]", ",", "0", " {}"}[rng.IntN(5)]
	case 2:
		doc = "\t " + doc + "\n"
	}
	return doc
}

// TestDecodeNumbersHostile decodes each hostile number as an element of
// arrays of every kind, first, last and alone, with white space, in
// arrays too short and too long for the Go array, and in fdArrays'
// fields, and checks every result and error against json.Unmarshal.
func TestDecodeNumbersHostile(t *testing.T) {
	var r numberTargets
	for _, tok := range numberTokens {
		r.fill(t)
		docs := []string{
			"[" + tok + "]", "[" + tok + ",1]", "[1," + tok + "]", "[1,2," + tok + ",4,5]", "[[" + tok + "]]",
			"[ " + tok + " ]", "[[1],[2," + tok + "]]", tok,
		}
		for _, key := range []string{"bytes", "i8", "i16", "i32", "i64", "i", "is", "u", "u16", "u32", "u64",
			"f32", "f32s", "f64", "f64s", "empty", "named", "pa", "ap"} {
			docs = append(docs, `{"`+key+`":[`+tok+`]}`, `{"`+key+`":[1,2,3,`+tok+`],"i":[1]}`, `{"`+key+`":`+tok+`}`)
		}
		docs = append(docs, `{"grid":[[`+tok+`],[1,2,3,`+tok+`]]}`, `{"u8s":[[1,`+tok+`]]}`,
			`{"pairs":[{"x":`+tok+`},{"y":`+tok+`}]}`, `{"slices":[[`+tok+`]]}`)
		for _, doc := range docs {
			r.check(t, []byte(doc))
		}
	}
}

// TestDecodeNumbersSemantics checks the cases where encoding/json's rules
// for arrays and slices are easy to get wrong, against json.Unmarshal.
func TestDecodeNumbersSemantics(t *testing.T) {
	docs := []string{
		// Missing elements are zero, extra ones skipped (and checked).
		`{"i":[1]}`, `{"i":[1,2,3,4,5,6]}`, `{"i":[1,2,3,[4,{"a":[5]}],"x",null,true]}`, `{"i":[1,2,3,[4}`,
		`{"i":[1,2,3,01]}`, `{"empty":[1,2]}`, `{"empty":[]}`, `{"empty":null}`,
		// null: an array keeps its value (zero here), a slice is nil,
		// an element is left as it was.
		`{"i":null}`, `{"is":null}`, `{"i":[null,2,null]}`, `{"is":[null,2,null]}`, `{"pa":null}`,
		`{"ap":[null,3]}`, `{"slices":[null,[1]]}`, `{"f64":[null]}`,
		// A repeated key decodes into what the first left.
		`{"i":[1,2,3],"i":[4]}`, `{"i":[1,2,3],"i":[null,5]}`, `{"i":[1,2],"i":null}`,
		`{"is":[1,2,3],"is":[4]}`, `{"pa":[1,2],"pa":[3]}`, `{"ap":[1,2],"ap":[3]}`,
		`{"grid":[[1,2,3],[4]],"grid":[[7]]}`, `{"pairs":[{"x":1,"y":2}],"pairs":[{"y":3}]}`,
		`{"I":[1],"i":[2]}`, `{"i":[1],"I":[null,2]}`,
		// Type errors in the middle of an array: the rest still decodes.
		`{"i":[1,"2",3],"i8":[1]}`, `{"i8":[1,300,-3],"u":[1]}`, `{"u":[1,-1,2]}`, `{"is":[1,2.5,3]}`,
		`{"is":[1,1e2,3]}`, `{"f32":[1e39,1]}`, `{"f64":[1e400,1]}`, `{"bytes":"AQID"}`, `{"bytes":[1,2,"3"]}`,
		`{"i":{"a":1}}`, `{"i":"123"}`, `{"is":{}}`, `{"grid":[1,2]}`, `{"grid":[[1,2,3,4],[5,6,7,8],[9]]}`,
		// Floats: rounding, the sign of zero, subnormals, big integers.
		`{"f64":[-0,0,-0.0]}`, `{"f32":[-0,1.401298464324817e-45]}`, `{"f64s":[9007199254740993,123456789012345678901234567890]}`,
		`{"f64s":[0.1,0.2,0.30000000000000004,1e-7,5e-324,2.4703282292062328e-324]}`, `{"f32s":[16777217,3.4028235677973366e38]}`,
		// White space everywhere.
		" {\n\"i\" : [ 1 ,\t2 , 3 ] , \"is\" :[\r4\n,5 ]\n} ", "[ ]", "[\n]", "[ 1 ]",
		// Syntax errors after numbers the fast path has stored.
		`{"is":[1,2,3,4,5,6,7,8,9,10],"i":[1,2,3]`, `{"is":[1,2,3,4,5,6,7,8,9,10]}x`, `[1,2,3`, `[1,2,]`, `[,1]`, `[1 2]`,
		`{"is":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]`, `{"u64":[18446744073709551615,0]}`,
	}
	var r numberTargets
	for _, doc := range docs {
		r.fill(t)
		r.check(t, []byte(doc))
	}
}

// TestDecodeNumbersRandom checks random documents of numeric arrays, made
// of valid numbers and hostile tokens, against json.Unmarshal.
func TestDecodeNumbersRandom(t *testing.T) {
	const seed = 36
	rng := rand.New(rand.NewPCG(seed, 3))
	n := 3000
	if testing.Short() {
		n = 500
	}
	var r numberTargets
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			r.fill(t)
		}
		doc := randomNumbersDoc(rng)
		r.check(t, []byte(doc))
	}
}

// FuzzDecodeNumbers checks, on any input, that every decode function of
// jsonpool agrees with json.Unmarshal on numeric arrays and slices, into
// fresh and into dirty reused targets.
//
//	go test -run '^$' -fuzz FuzzDecodeNumbers -fuzztime 3m ./jsonpool
func FuzzDecodeNumbers(f *testing.F) {
	rng := rand.New(rand.NewPCG(36, 4))
	for i := 0; i < 50; i++ {
		f.Add([]byte(randomNumbersDoc(rng)))
	}
	f.Add([]byte(fdArraysFull))
	var r numberTargets
	f.Fuzz(func(t *testing.T, data []byte) {
		r.check(t, data)
	})
}

// TestDecodeNumbersRoundTrip marshals random values of fdArrays, numbers
// of every size and sign in them, and checks that jsonpool decodes them as
// json.Unmarshal does (which is not v itself where a string holds invalid
// UTF-8).
func TestDecodeNumbersRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 5))
	var r numberTargets
	n := 500
	if testing.Short() {
		n = 100
	}
	for i := 0; i < n; i++ {
		v := randomValue[fdArrays](rng)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		r.check(t, b)
	}
}

// TestUnmarshalReuseNumbersKeepsRoom checks that UnmarshalReuse decodes a
// slice of numbers into the backing array it had, with nothing of the
// previous document left in it up to its capacity, and an array with the
// elements the document leaves out zero.
func TestUnmarshalReuseNumbersKeepsRoom(t *testing.T) {
	var v fdArrays
	if err := jsonpool.UnmarshalReuse(&v, []byte(`{"is":[1,2,3,4,5,6,7,8],"i":[7,8,9]}`)); err != nil {
		t.Fatal(err)
	}
	room, at := cap(v.Is), unsafe.SliceData(v.Is)
	if err := jsonpool.UnmarshalReuse(&v, []byte(`{"is":[10,11],"i":[12]}`)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Is, []int{10, 11}) || v.I != [3]int{12, 0, 0} {
		t.Fatalf("Is = %v, I = %v; want [10 11] and [12 0 0]", v.Is, v.I)
	}
	if cap(v.Is) != room || unsafe.SliceData(v.Is) != at {
		t.Errorf("Is has a new backing array of capacity %d, want the old one of %d", cap(v.Is), room)
	}
	for k, x := range v.Is[2:cap(v.Is)] {
		if x != 0 {
			t.Errorf("Is[:cap][%d] = %d after a shorter document, want 0", k+2, x)
		}
	}
}

// TestDecodeNumbersAllocs asserts that decoding numeric arrays and slices
// into a warmed target allocates nothing, and that Unmarshal of the
// student (a [1024]byte) allocates only its Name.
func TestDecodeNumbersAllocs(t *testing.T) {
	if !jsonpool.FastPaths {
		t.Skip("built without the fast paths (poolkit_nounsafe)")
	}
	pooltest.SkipIfRace(t)
	data := []byte(`{"bytes":[1,2,3,4],"i8":[-1,-2,-3],"i16":[1,2,3,4,5],"i32":[7,8],"i64":[9,9,9],
"i":[4,5,6],"is":[1,2,3,4,5,6,7,8],"u":[1,2],"u8s":[[1,2],[3,4],[5,6]],"u16":[1,2],"u32":[3,4,5],
"u64":[6,7],"f32":[1.5,-0],"f32s":[2.5,3],"f64":[1,2e300,3],"f64s":[0.1,0.2,0.3,0.4],"empty":[1],
"grid":[[1,2,3],[4,5,6]],"named":[1,2,3],"pairs":[{"x":1,"y":2},{"x":3,"y":4}],"b":[true,true],"slices":[[1,2],[3]]}`)
	var v fdArrays
	if err := jsonpool.UnmarshalReuse(&v, data); err != nil {
		t.Fatal(err)
	}
	pooltest.WantAllocs(t, 0, func() {
		if err := jsonpool.UnmarshalReuse(&v, data); err != nil {
			t.Fatal(err)
		}
	})
	stuJSON, err := json.Marshal(student{Name: "Geektutu", Age: 25, Remark: [1024]byte{1, 2, 255}})
	if err != nil {
		t.Fatal(err)
	}
	p := jsonpool.NewPool[student]()
	pooltest.WantAllocs(t, 1, func() {
		s, err := jsonpool.Unmarshal(p, stuJSON)
		if err != nil || s.Remark[2] != 255 {
			t.Fatalf("Unmarshal(student) = %v, %v", s, err)
		}
		p.Put(s)
	})
}
