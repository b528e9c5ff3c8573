package jsonpool_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// The types of the differential tests: every kind the fast encode path
// takes, and every option it honours.

type fzMyString string

type fzMyInt int16

type fzMyByte uint8

type fzNums struct {
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64 `json:"i64"`
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64 `json:"u-64"`
	UP  uintptr
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
	B   bool
	MI  fzMyInt
	F   [2]float64 `json:"floats"`
}

type fzStrs struct {
	S     string     `json:"s"`
	P     *string    `json:"p"`
	Named fzMyString `json:"named"`
	Bytes []byte     `json:"bytes"`
	Arr   [3]uint8   `json:"arr"`
	List  []string   `json:"list"`
	MyB   []fzMyByte `json:"myb"`
	hide  string
	Skip  string `json:"-"`
	//lint:ignore SA5008 encoding/json names this field "-", a case the fast path must get right
	Dash string `json:"-,"`
	Zoë  string
}

type fzTimes struct {
	T   time.Time      `json:"t"`
	PT  *time.Time     `json:"pt"`
	K   jsonpool.Time  `json:"k"`
	PK  *jsonpool.Time `json:"pk"`
	TZ  time.Time      `json:"tz,omitzero"`
	KZ  jsonpool.Time  `json:"kz,omitzero"`
	TE  time.Time      `json:"te,omitempty"`
	Due []time.Time    `json:"due"`
}

type fzOmit struct {
	B    bool         `json:"b,omitempty"`
	I    int          `json:"i,omitempty"`
	I8   int8         `json:"i8,omitempty"`
	U16  uint16       `json:"u16,omitempty"`
	U32  uint32       `json:"u32,omitempty"`
	U64  uint64       `json:"u64,omitempty"`
	F32  float32      `json:"f32,omitempty"`
	F64  float64      `json:"f64,omitempty"`
	S    string       `json:"s,omitempty"`
	P    *int         `json:"p,omitempty"`
	Sl   []int        `json:"sl,omitempty"`
	A0   [0]int       `json:"a0,omitempty"`
	A1   [1]int       `json:"a1,omitempty"`
	St   fzInner      `json:"st,omitempty"`
	ZB   bool         `json:"zb,omitzero"`
	ZI   int64        `json:"zi,omitzero"`
	ZF32 float32      `json:"zf32,omitzero"`
	ZF   float64      `json:"zf,omitzero"`
	ZS   string       `json:"zs,omitzero"`
	ZP   *fzInner     `json:"zp,omitzero"`
	ZSl  []string     `json:"zsl,omitzero"`
	ZN   fzMyString   `json:"zn,omitzero"`
	Both []byte       `json:"both,omitempty,omitzero"`
	BF   float64      `json:",omitzero,omitempty"`
	PP   **fzMyInt    `json:"pp,omitempty"`
	PS   *[]fzMyInt   `json:"ps,omitzero"`
	AP   [2]*fzInner  `json:"ap"`
	ZSt  fzZeroish    `json:"zst,omitzero"`
	ZA   [2]float64   `json:"za,omitzero"`
	ZT   [1]time.Time `json:"zt,omitzero"`
}

// fzZeroish is a struct for omitzero, which encoding/json tests with
// reflect.Value.IsZero: every field zero, -0 and a time.Time of location
// nil included, an unexported one too, whatever its methods say.
type fzZeroish struct {
	F    float64
	T    time.Time
	S    string
	P    *int
	A    [2]int8
	hide int
	In   fzInner
}

type fzInner struct {
	N int    `json:"n"`
	S string `json:"s"`
}

// Embedded structs, directly and through pointers, whose fields join the
// outer struct's.
type FzBase struct {
	ID   int64  `json:"id"`
	Note string `json:"note,omitempty"`
	FzDeep
}

type FzDeep struct {
	Level float64   `json:"level"`
	At    time.Time `json:"at,omitzero"`
	*FzEmpty
}

type FzExtra struct {
	Extra string `json:"extra"`
	Flag  bool
}

type FzEmpty struct{}

type fzEmbeds struct {
	Own string `json:"own"`
	FzBase
	*FzExtra
	FzEmpty
	Last []int `json:"last"`
}

type fzOuter struct {
	Nums   fzNums      `json:"nums"`
	Strs   []fzStrs    `json:"strs"`
	PStrs  *fzStrs     `json:"pstrs"`
	Times  fzTimes     `json:"times"`
	Omit   fzOmit      `json:"omit"`
	Nil    []int       `json:"nil"`
	Empty  []int       `json:"empty"`
	Inner  [2]fzInner  `json:"inner"`
	Matrix [][]float64 `json:"matrix"`
	PP     **fzInner   `json:"pp"`
	Emb    fzEmbeds    `json:"emb"`
	PEmb   *fzEmbeds   `json:"pemb"`
}

// fzSource turns fuzz bytes into values; when it runs out it gives
// zeros.
type fzSource struct{ b []byte }

func (s *fzSource) bytes(n int) []byte {
	if n > len(s.b) {
		n = len(s.b)
	}
	out := s.b[:n]
	s.b = s.b[n:]
	return out
}

func (s *fzSource) u64() uint64 {
	var a [8]byte
	copy(a[:], s.bytes(8))
	return binary.LittleEndian.Uint64(a[:])
}

func (s *fzSource) byte() byte {
	if b := s.bytes(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (s *fzSource) bool() bool { return s.byte()&1 == 1 }

// fzSpecial are floats at encoding/json's format switches and limits.
var fzSpecial = []float64{0, math.Copysign(0, -1), 1e-6, 1e-7, 9.999999e-7, 1e21, 1e20, 999999999999999999999, 1e-320,
	math.MaxFloat64, math.SmallestNonzeroFloat64, -1.5e-9, 123456789.125, 0.1, 1e100, -1e21, 5e-324, 1.0000001e-6,
	float64(math.MaxFloat32), float64(math.SmallestNonzeroFloat32), float64(float32(1e-6)), float64(float32(1e21)), 3.4e38}

func (s *fzSource) f64() float64 {
	switch k := s.byte(); {
	case k < 64:
		return fzSpecial[int(k)%len(fzSpecial)]
	case k < 128:
		return float64(int64(s.u64())%2000000) / 1000
	default:
		return math.Float64frombits(s.u64()) // NaN and ±Inf included
	}
}

func (s *fzSource) f32() float32 {
	switch k := s.byte(); {
	case k < 64:
		return float32(fzSpecial[int(k)%len(fzSpecial)])
	case k < 128:
		return float32(int64(s.u64())%2000000) / 1000
	default:
		return math.Float32frombits(uint32(s.u64()))
	}
}

// fzPieces are string fragments the escaping treats specially.
var fzPieces = []string{"<", ">", "&", "\u2028", "\u2029", "\x00", "\x1f", "\x7f", "\b", "\f", "\n", "\r", "\t", `"`, `\`,
	"\xff", "\xc3", "\xe2\x80", "é", "日本", "\U0001F600", "\xed\xa0\x80", "\uFFFD", "plain text ", "/"}

func (s *fzSource) str() string {
	n := int(s.byte() % 12)
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch k := s.byte(); {
		case k < 100:
			b.WriteString(fzPieces[int(k)%len(fzPieces)])
		default:
			b.Write(s.bytes(int(k % 8))) // raw fuzz bytes, any UTF-8 or not
		}
	}
	return b.String()
}

func (s *fzSource) time() time.Time {
	var loc *time.Location
	switch s.byte() % 4 {
	case 0:
		loc = time.UTC
	case 1:
		loc = time.FixedZone("", int(int64(s.u64())%(30*3600))) // up to ±30 hours, seconds included
	case 2:
		loc = time.FixedZone("X", (int(s.byte())-128)*15*60)
	default:
		loc = time.FixedZone("CET", 3600)
	}
	var sec int64
	switch s.byte() % 4 {
	case 0:
		sec = 1700000000 + int64(s.u64()%1e8)
	case 1:
		sec = int64(s.u64()) % (400000 * 365 * 86400) // years far outside 0-9999
	case 2:
		sec = -62135596800 + int64(s.u64()%(86400*3)) - 86400 // around year 0
	default:
		sec = int64(s.u64() % (1 << 38))
	}
	var nsec int64
	switch s.byte() % 4 {
	case 0:
	case 1:
		nsec = int64(s.u64() % 1e9)
	case 2:
		nsec = int64(s.u64()%1000) * 1e6
	default:
		nsec = int64(s.u64()%10) * 1e8
	}
	if s.byte()%8 == 0 {
		return time.Time{}
	}
	return time.Unix(sec, nsec).In(loc)
}

func (s *fzSource) nums() fzNums {
	return fzNums{
		I: int(s.u64()), I8: int8(s.u64()), I16: int16(s.u64()), I32: int32(s.u64()), I64: int64(s.u64()),
		U: uint(s.u64()), U8: uint8(s.u64()), U16: uint16(s.u64()), U32: uint32(s.u64()), U64: s.u64(),
		UP: uintptr(s.u64()), F32: s.f32(), F64: s.f64(), B: s.bool(), MI: fzMyInt(s.u64()),
		F: [2]float64{s.f64(), s.f64()},
	}
}

func (s *fzSource) strs() fzStrs {
	v := fzStrs{S: s.str(), Named: fzMyString(s.str()), Arr: [3]uint8{s.byte(), s.byte(), s.byte()},
		hide: s.str(), Skip: "skipped", Dash: s.str(), Zoë: s.str()}
	if s.bool() {
		p := s.str()
		v.P = &p
	}
	switch s.byte() % 3 {
	case 1:
		v.Bytes = []byte{}
	case 2:
		v.Bytes = []byte(s.str())
	}
	for n := s.byte() % 4; n > 0; n-- {
		v.List = append(v.List, s.str())
	}
	if s.bool() {
		for _, c := range []byte(s.str()) {
			v.MyB = append(v.MyB, fzMyByte(c))
		}
	}
	return v
}

func (s *fzSource) times() fzTimes {
	v := fzTimes{T: s.time(), K: jsonpool.Time{Time: s.time()}, TZ: s.time(), KZ: jsonpool.Time{Time: s.time()}, TE: s.time()}
	if s.bool() {
		t := s.time()
		v.PT = &t
	}
	if s.bool() {
		v.PK = &jsonpool.Time{Time: s.time()}
	}
	for n := s.byte() % 3; n > 0; n-- {
		v.Due = append(v.Due, s.time())
	}
	return v
}

// zeroish returns 0 most of the time, so that omitempty and omitzero
// fields are left out often.
func (s *fzSource) zeroish() bool { return s.byte()%2 == 0 }

func (s *fzSource) omit() fzOmit {
	var v fzOmit
	if !s.zeroish() {
		v.B, v.I, v.I8, v.U16, v.U32, v.U64 = true, int(s.u64()), int8(s.u64()), uint16(s.u64()), uint32(s.u64()), s.u64()
	}
	if !s.zeroish() {
		v.F32, v.F64, v.S = s.f32(), s.f64(), s.str()
	}
	if !s.zeroish() {
		n := int(s.u64())
		v.P = &n
	}
	switch s.byte() % 3 {
	case 1:
		v.Sl = []int{}
	case 2:
		v.Sl = []int{int(s.u64())}
	}
	if !s.zeroish() {
		v.A1[0] = int(s.byte())
		v.St = fzInner{N: int(s.byte()), S: s.str()}
	}
	if !s.zeroish() {
		v.ZB, v.ZI, v.ZF32, v.ZF, v.ZS = s.bool(), int64(s.byte()%3), s.f32(), s.f64(), s.str()
	}
	if !s.zeroish() {
		v.ZP = &fzInner{N: int(s.byte())}
	}
	switch s.byte() % 3 {
	case 1:
		v.ZSl = []string{}
	case 2:
		v.ZSl = []string{s.str()}
	}
	v.ZN = fzMyString(s.str())
	switch s.byte() % 3 {
	case 1:
		v.Both = []byte{}
	case 2:
		v.Both = []byte(s.str())
	}
	if !s.zeroish() {
		v.BF = s.f64()
	}
	if !s.zeroish() {
		m := fzMyInt(s.byte())
		pm := &m
		v.PP = &pm
		if s.bool() {
			v.PP = new(*fzMyInt)
		}
	}
	switch s.byte() % 3 {
	case 1:
		v.PS = &[]fzMyInt{}
	case 2:
		v.PS = new([]fzMyInt)
	}
	if s.bool() {
		v.AP[1] = &fzInner{S: s.str()}
	}
	switch s.byte() % 8 {
	case 1:
		v.ZSt.F = math.Copysign(0, -1)
	case 2:
		v.ZSt.T = time.Time{}.In(time.FixedZone("", 0)) // IsZero, but not the zero value
	case 3:
		v.ZSt.hide = 1
	case 4:
		v.ZSt.In.S = s.str()
	case 5:
		v.ZSt.A[1] = int8(s.byte())
	case 6:
		v.ZSt.F = s.f64()
	case 7:
		n := 0
		v.ZSt.P = &n
	}
	switch s.byte() % 4 {
	case 1:
		v.ZA[0] = math.Copysign(0, -1)
	case 2:
		v.ZA[1] = s.f64()
	case 3:
		v.ZT[0] = time.Time{}.In(time.FixedZone("", 0))
	}
	return v
}

func (s *fzSource) outer() *fzOuter {
	v := &fzOuter{Nums: s.nums(), Times: s.times(), Omit: s.omit(), Empty: []int{}}
	for n := s.byte() % 3; n > 0; n-- {
		v.Strs = append(v.Strs, s.strs())
	}
	if s.bool() {
		p := s.strs()
		v.PStrs = &p
	}
	if s.bool() {
		v.Nil = []int{int(s.byte())}
	}
	v.Inner[1] = fzInner{N: -int(s.byte()), S: s.str()}
	for n := s.byte() % 3; n > 0; n-- {
		row := []float64(nil)
		if s.bool() {
			row = []float64{s.f64(), s.f64()}
		}
		v.Matrix = append(v.Matrix, row)
	}
	v.Emb = fzEmbeds{Own: s.str(), FzBase: FzBase{ID: int64(s.u64()), FzDeep: FzDeep{Level: s.f64()}}}
	if s.bool() {
		v.Emb.Note = s.str()
	}
	if s.bool() {
		v.Emb.At = s.time()
	}
	if s.bool() {
		v.Emb.FzDeep.FzEmpty = &FzEmpty{}
	}
	if s.bool() {
		v.Emb.FzExtra = &FzExtra{Extra: s.str(), Flag: s.bool()}
	}
	if s.bool() {
		v.Emb.Last = []int{int(s.byte())}
	}
	if s.bool() {
		e := v.Emb
		v.PEmb = &e
	}
	switch s.byte() % 3 {
	case 1:
		v.PP = new(*fzInner)
	case 2:
		in := &fzInner{N: 1}
		v.PP = &in
	}
	return v
}

// fzValues returns the values the differential tests encode from data:
// the whole tree through a pointer and by value, and its parts, each
// through a pointer and by value.
func fzValues(data []byte) []any {
	s := &fzSource{b: data}
	o := s.outer()
	vs := []any{o, *o, &o.Emb, o.Emb, &o.Nums, o.Nums, &o.Times, o.Times, &o.Omit, o.Omit, o.Strs, &o.Strs, o.Matrix,
		o.Nums.F64, &o.Nums.F32, o.Times.T, &o.Times.K, o.Times.K, o.Nil, o.Empty, o.PP, o.Inner}
	if len(o.Strs) > 0 {
		vs = append(vs, o.Strs[0].S, &o.Strs[0], o.Strs[0].Bytes)
	}
	return vs
}

// checkEncodes holds every way jsonpool encodes v, with o, to what
// json.Encoder writes with the same settings, errors included. It reports
// whether encoding/json failed.
func checkEncodes(t *testing.T, o jsonpool.Options, v any) bool {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(!o.NoHTMLEscape)
	enc.SetIndent(o.Prefix, o.Indent)
	wantErr := enc.Encode(v)
	if wantErr != nil {
		want.Reset()
	}

	// Room in dst for the output and a byte more, past which nothing may
	// be written: the canary.
	dst := withCanary("prefix:", want.Len()+1)
	got, err := o.AppendEncode(dst, v)
	checkCanary(t, fmt.Sprintf("%+v.AppendEncode(%T)", o, v), dst, got)
	if !sameErr(err, wantErr) {
		t.Fatalf("%+v.AppendEncode(%T) error = %v, want %v", o, v, err, wantErr)
	}
	if err != nil && (len(got) != len(dst) || &got[0] != &dst[0]) {
		t.Fatalf("%+v.AppendEncode(%T) failed but returned %q, not dst", o, v, got)
	}
	if err == nil && !bytes.Equal(got, append([]byte("prefix:"), want.Bytes()...)) {
		t.Fatalf("%+v.AppendEncode(%T):\n got %q\nwant %q", o, v, got[len(dst):], want.Bytes())
	}

	mdst := withCanary("", want.Len())
	m, err := o.Marshal(mdst, v)
	checkCanary(t, fmt.Sprintf("%+v.Marshal(%T)", o, v), mdst, m)
	if !sameErr(err, wantErr) {
		t.Fatalf("%+v.Marshal(%T) error = %v, want %v", o, v, err, wantErr)
	}
	if err == nil && !bytes.Equal(m, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
		t.Fatalf("%+v.Marshal(%T):\n got %q\nwant %q", o, v, m, want.Bytes())
	}

	w := &countingWriter{}
	n, err := o.EncodeN(w, v)
	if !sameErr(err, wantErr) {
		t.Fatalf("%+v.EncodeN(%T) error = %v, want %v", o, v, err, wantErr)
	}
	if !bytes.Equal(w.buf.Bytes(), want.Bytes()) || n != want.Len() || w.writes != min(want.Len(), 1) {
		t.Fatalf("%+v.EncodeN(%T) = %d in %d writes of %q\nwant %d in one write of %q", o, v, n, w.writes, w.buf.Bytes(), want.Len(), want.Bytes())
	}
	return wantErr != nil
}

// sameErr reports whether err is encoding/json's want as a caller tells
// errors apart: the same type and message and, for the two errors that
// give an offset in the input, the same offset. Nothing is compared by
// pointer: an UnsupportedValueError holds a reflect.Value of the value it
// refuses, whose pointer differs from one call to the next (and on the
// v2 engine points at a copy).
func sameErr(err, want error) bool {
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
	if errors.As(err, &te) != errors.As(want, &wte) || te != nil && te.Offset != wte.Offset {
		return false
	}
	return true
}

// checkFast checks that the fast path itself encodes v, unless
// encoding/json fails on it, with both escapings: a case that passed only
// through the fallback would prove nothing about the fast path. Without
// the fast paths (the poolkit_nounsafe tag) it checks that nothing is
// taken.
func checkFast(t *testing.T, v any, jsonFailed bool) {
	t.Helper()
	want := !jsonFailed && jsonpool.FastPaths
	for _, html := range []bool{true, false} {
		out, ok := jsonpool.FastEncodes(v, html)
		if ok != want {
			t.Fatalf("fast path took %T (html %v): %v, want %v (encoding/json failed: %v); wrote %q", v, html, ok, want, jsonFailed, out)
		}
	}
	o := jsonpool.Options{Prefix: "> ", Indent: "\t"}
	if out, ok := jsonpool.FastEncodesWith(o, v); ok != want {
		t.Fatalf("fast path took %T (%+v): %v, want %v; wrote %q", v, o, ok, want, out)
	}
}

func fuzzOnce(t *testing.T, data []byte) {
	for _, v := range fzValues(data) {
		failed := checkEncodes(t, jsonpool.Options{}, v)
		if f := checkEncodes(t, jsonpool.Options{NoHTMLEscape: true}, v); f != failed {
			t.Fatalf("encoding/json fails on %T with HTML escaping: %v, without: %v", v, failed, f)
		}
		checkEncodes(t, jsonpool.Options{Prefix: "\t", Indent: "  "}, v)
		checkFast(t, v, failed)
	}
}

// FuzzFastEncode holds the fast encode path to encoding/json, the oracle,
// on values built from the fuzz input: every number kind, floats at the
// format switches and NaN, strings of any bytes, times in any zone and
// year, omitempty and omitzero fields, nil and empty slices and pointers.
//
//	go test -run '^$' -fuzz FuzzFastEncode -fuzztime 5m ./jsonpool
func FuzzFastEncode(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 16; i++ {
		f.Add(randomBytes(r, 64+r.IntN(512)))
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 300))
	f.Fuzz(fuzzOnce)
}

// randomBytes returns n bytes from r, the input of a fuzz check run by
// go test.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(r.Uint32())
	}
	return b
}

// TestFastEncodeRandom is the fuzz target's check over random inputs, run
// by every go test.
func TestFastEncodeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		fuzzOnce(t, randomBytes(r, r.IntN(800)))
	}
}

// TestFastEncodeOptions runs every Options combination over values of
// every supported type: indenting ones go to encoding/json, the others
// take the fast path, and all give json.Encoder's bytes.
func TestFastEncodeOptions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 40; i++ {
		for _, v := range fzValues(randomBytes(r, 600)) {
			for _, html := range []bool{false, true} {
				for _, prefix := range []string{"", "> "} {
					for _, indent := range []string{"", "\t", "  "} {
						checkEncodes(t, jsonpool.Options{NoHTMLEscape: !html, Prefix: prefix, Indent: indent}, v)
					}
				}
			}
		}
	}
}

// Types the fast path must leave to encoding/json, each with a value.

type feMarshalerValue struct{ A int }

func (feMarshalerValue) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }

type feMarshalerPtr struct{ A int }

func (*feMarshalerPtr) MarshalJSON() ([]byte, error) { return []byte(`"custom ptr"`), nil }

type feText int

func (feText) MarshalText() ([]byte, error) { return []byte("text<&>"), nil }

type feTextPtr string

func (*feTextPtr) MarshalText() ([]byte, error) { return []byte("textptr"), nil }

type feIsZero int

func (v feIsZero) IsZero() bool { return v == 7 }

type feEmbedded struct {
	fzInner
	X int
}

type feRecursive struct {
	Next *feRecursive `json:"next"`
	N    int
}

type feOnePointer struct{ P *int }

type FeNamedInt int

type FeRec struct {
	*FeRec
	N int
}

type FeTwin struct {
	FzExtra
	FeOther
}

type FeOther struct {
	Flag string // FzExtra has a Flag too: encoding/json drops both
}

func TestFastEncodeLeavesToEncodingJSON(t *testing.T) {
	n := 3
	s := feTextPtr("s")
	for name, v := range map[string]any{
		"map":             map[string]int{"a": 1},
		"map field":       &struct{ M map[string]int }{M: map[string]int{"b": 2}},
		"interface field": &struct{ I any }{I: 1},
		"embedded":        &feEmbedded{fzInner{1, "a"}, 2},
		"string option": &struct {
			N int `json:"n,string"`
		}{5},
		"unknown option": &struct {
			N int `json:"n,inline"`
		}{5},
		"marshaler":                  &struct{ M feMarshalerValue }{},
		"marshaler by value":         feMarshalerValue{},
		"pointer marshaler":          &struct{ M feMarshalerPtr }{},
		"pointer marshaler by value": struct{ M feMarshalerPtr }{},
		"text marshaler":             &struct{ T feText }{3},
		"text pointer":               &struct{ T feTextPtr }{"x"},
		"text pointer field":         &struct{ T *feTextPtr }{&s},
		"json.Number":                &struct{ N json.Number }{"12.50"},
		"raw message":                &struct{ R json.RawMessage }{json.RawMessage(`{"a":1}`)},
		"recursive":                  &feRecursive{Next: &feRecursive{N: 2}},
		"duplicate names": &struct {
			A int
			B int `json:"A"`
		}{1, 2},
		"names by case": &struct {
			A int
			B int `json:"a"`
		}{1, 2},
		"html in name": &struct {
			A int `json:"a<b"`
		}{1},
		"quote in name": &struct {
			A int `json:"'a'"`
		}{1},
		"IsZero method": &struct {
			Z feIsZero `json:"z,omitzero"`
		}{7},
		"complex":              &struct{ C complex128 }{1},
		"one pointer by value": feOnePointer{&n},
		"slice of maps":        []map[string]int{{"a": 1}},
		"nil":                  nil,
		"duration":             &struct{ D time.Duration }{time.Second},
		"embedded names clash": &FeTwin{},
		"embedded name clashes with outer": &struct {
			FzBase
			ID string `json:"ID"`
		}{},
		"tagged embedded": &struct {
			FzBase `json:"base"`
		}{},
		"embedded non-struct": &struct{ FeNamedInt }{3},
		"embedded time":       &struct{ time.Time }{time.Now()},
		"embedded recursive":  &FeRec{FeRec: &FeRec{N: 1}, N: 2},
		"embedded marshaler":  &struct{ feMarshalerValue }{},
		// encoding/json omits a non-nil *time.Time to a zero time.
		"omitzero time pointer": &struct {
			T *time.Time `json:"t,omitzero"`
		}{T: new(time.Time)},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "duration" {
				// time.Duration is an int64 to encoding/json v1; see
				// TestFastEncodeDuration.
				t.Skip()
			}
			for _, html := range []bool{true, false} {
				if out, ok := jsonpool.FastEncodes(v, html); ok {
					t.Errorf("fast path took %T and wrote %s; it must leave it to encoding/json", v, out)
				}
			}
			for _, o := range []jsonpool.Options{{}, {NoHTMLEscape: true}} {
				checkEncodes(t, o, v)
			}
		})
	}
}

// TestFastEncodeErrors: the values encoding/json refuses (NaN, ±Inf, times
// out of range) give encoding/json's own errors and leave dst as it was.
func TestFastEncodeErrors(t *testing.T) {
	for name, v := range map[string]any{
		"nan":          &fzNums{F64: math.NaN()},
		"inf":          &fzNums{F32: float32(math.Inf(1))},
		"inf in slice": &fzOuter{Matrix: [][]float64{{1, math.Inf(-1)}}},
		"year 10000":   &fzTimes{T: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		"year -1":      &fzTimes{K: jsonpool.Time{Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}},
		"zone 24h":     &fzTimes{Due: []time.Time{time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))}},
		"late nan":     &struct{ S []fzNums }{S: []fzNums{{}, {}, {F64: math.NaN()}}},
	} {
		t.Run(name, func(t *testing.T) {
			for _, o := range []jsonpool.Options{{}, {NoHTMLEscape: true}} {
				if !checkEncodes(t, o, v) {
					t.Fatalf("encoding/json encoded %T; the case is wrong", v)
				}
			}
			checkFast(t, v, true)
		})
	}
}

// TestFastEncodeDuration: time.Duration has no method encoding/json uses;
// it is an int64 in v1 and in v2's v1 mode, and the fast path writes it
// as one.
func TestFastEncodeDuration(t *testing.T) {
	v := &struct {
		D time.Duration `json:"d"`
	}{90 * time.Second}
	checkEncodes(t, jsonpool.Options{}, v)
	checkFast(t, v, false)
}

// TestFastEncodeOverlap: a string or []byte of v lying in dst's spare
// capacity is read before anything is written there.
func TestFastEncodeOverlap(t *testing.T) {
	type aliased struct {
		S string
		B []byte
		L []string
	}
	for _, text := range []string{"<html> & \"quotes\" \u2028", "plain", ""} {
		for _, k := range []int{0, 1, 7} {
			arr := make([]byte, 7+k+2*len(text)+256)
			copy(arr, "prefix:")
			at := 7 + k
			copy(arr[at:], text)
			copy(arr[at+len(text):], text)
			s := unsafe.String(unsafe.SliceData(arr[at:]), len(text))
			v := &aliased{S: s, B: arr[at+len(text) : at+2*len(text)], L: []string{s, s}}
			want, err := json.Marshal(&aliased{S: text, B: []byte(text), L: []string{text, text}})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := jsonpool.FastEncodes(v, true); ok != jsonpool.FastPaths {
				t.Fatalf("the fast path takes the aliased type: %v, want %v", ok, jsonpool.FastPaths)
			}
			got, err := jsonpool.Marshal(arr[:7], v)
			if err != nil || string(got) != "prefix:"+string(want) {
				t.Errorf("Marshal with fields in dst's spare capacity at %d = %s, %v\nwant prefix:%s", k, got, err, want)
			}
		}
	}
}

// TestFastEncodeAllocs: the fast path allocates nothing once dst has room
// (and Encode's pooled buffer has grown), for values through a pointer
// and by value, with time.Time fields included, which encoding/json
// allocates for.
func TestFastEncodeAllocs(t *testing.T) {
	if !jsonpool.FastPaths {
		t.Skip("built without the fast paths (poolkit_nounsafe)")
	}
	r := rand.New(rand.NewPCG(9, 10))
	o := (&fzSource{b: randomBytes(r, 2000)}).outer()
	o.Nums.F64, o.Nums.F32, o.Nums.F = 1.5, 2.5, [2]float64{}
	o.Omit.F32, o.Omit.F64, o.Omit.ZF, o.Omit.ZF32, o.Omit.BF = 0, 0, 0, 0, 0
	o.Times = fzTimes{T: time.Now(), K: jsonpool.Time{Time: time.Now()}, Due: []time.Time{time.Now()}}
	o.Matrix = nil
	if _, ok := jsonpool.FastEncodes(o, true); !ok {
		t.Fatal("the fast path does not take the test value")
	}
	rc := receiptLike()
	dst := make([]byte, 0, 64<<10)
	var w bytes.Buffer
	w.Grow(64 << 10)
	for name, f := range map[string]func(){
		"AppendEncode pointer": func() { dst, _ = jsonpool.AppendEncode(dst[:0], o) },
		"Marshal pointer":      func() { dst, _ = jsonpool.Marshal(dst[:0], o) },
		"AppendEncode receipt": func() { dst, _ = jsonpool.AppendEncode(dst[:0], rc) },
		"NoHTMLEscape":         func() { dst, _ = jsonpool.Options{NoHTMLEscape: true}.AppendEncode(dst[:0], rc) },
		"EncodeN":              func() { w.Reset(); _, _ = jsonpool.EncodeN(&w, rc) },
		"Encode":               func() { w.Reset(); _ = jsonpool.Encode(&w, o) },
		"Encode indented":      func() { w.Reset(); _ = jsonpool.Options{Indent: "  "}.Encode(&w, rc) },
		"Marshal indented":     func() { dst, _ = jsonpool.Options{Prefix: "#", Indent: "\t"}.Marshal(dst[:0], o) },
	} {
		if !pooltest.WantAllocs(t, 0, f) {
			t.Logf("case %s", name)
		}
	}
}

// TestFastEncodeConcurrent encodes from many goroutines at once, each its
// own values, through the fast path (types whose plans are built while the
// others run), the fallback and failures, checking every output against
// json.Marshal: a pooled buffer reaching two callers, or a plan built
// half-way, shows as a wrong result here and as a race under -race.
func TestFastEncodeConcurrent(t *testing.T) {
	type item struct {
		N int64   `json:"n"`
		S string  `json:"s,omitempty"`
		F float64 `json:"f"`
	}
	type doc struct {
		ID    int       `json:"id"`
		Items []item    `json:"items"`
		At    time.Time `json:"at"`
		Extra map[string]int
	}
	type fast struct {
		ID    int    `json:"id"`
		Items []item `json:"items"`
		Tags  []string
	}
	const goroutines, rounds = 8, 200
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst []byte
			var w bytes.Buffer
			for i := 0; i < rounds; i++ {
				v := &fast{ID: g*rounds + i, Tags: []string{fmt.Sprint("<g", g, ">")}}
				for j := 0; j < i%6; j++ {
					v.Items = append(v.Items, item{N: int64(j * g), S: strings.Repeat("é", j), F: float64(i) / 8})
				}
				var x any = v
				switch i % 4 {
				case 1: // the fallback: a map field
					x = &doc{ID: v.ID, Items: v.Items, At: time.Unix(int64(i), 0).UTC(), Extra: map[string]int{"g": g}}
				case 2: // a failure: NaN, then a retry through encoding/json
					bad := *v
					bad.Items = append(bad.Items[:len(bad.Items):len(bad.Items)], item{F: math.NaN()})
					if _, err := jsonpool.AppendEncode(dst[:0], &bad); err == nil {
						errs <- fmt.Errorf("no error for NaN")
						return
					}
				}
				want, err := json.Marshal(x)
				if err != nil {
					errs <- err
					return
				}
				if dst, err = jsonpool.AppendEncode(dst[:0], x); err != nil || !bytes.Equal(dst, append(want, '\n')) {
					errs <- fmt.Errorf("goroutine %d round %d: AppendEncode = %s, %v; want %s", g, i, dst, err, want)
					return
				}
				w.Reset()
				if n, err := jsonpool.EncodeN(&w, x); err != nil || n != len(want)+1 || !bytes.Equal(w.Bytes(), append(want, '\n')) {
					errs <- fmt.Errorf("goroutine %d round %d: EncodeN = %d %s, %v; want %s", g, i, n, w.Bytes(), err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
