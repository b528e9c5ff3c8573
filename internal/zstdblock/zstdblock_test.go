package zstdblock

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/systool"
)

// input is one named test input.
type input struct {
	name string
	b    []byte
}

// jsonRecords returns a JSON array of records about n bytes long, like an
// API's answer.
func jsonRecords(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < n-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"sku":"SKU-%05d","name":"item %x","qty":%d,"price":"%d.%02d","tags":["a%d","b"]}`,
			i, r.IntN(100000), r.Uint32(), r.IntN(20), r.IntN(1000), r.IntN(100), r.IntN(9))
	}
	b.WriteByte(']')
	return b.Bytes()[:n]
}

// inputs returns the kinds of input the encoder must take: empty, a byte,
// all one byte, random (incompressible), repetitive, text, JSON, binary,
// and exactly MaxInput.
func inputs() []input {
	r := rand.New(rand.NewPCG(7, 8))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	few := func(n, alphabet int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(alphabet))
		}
		return b
	}
	binary := make([]byte, 20000)
	for i := 0; i+8 <= len(binary); i += 8 {
		v := uint64(i/8) * 0x9E3779B97F4A7C15 >> uint(r.IntN(60))
		for k := range 8 {
			binary[i+k] = byte(v >> (8 * k))
		}
	}
	skewed := make([]byte, 5000) // symbols whose counts call for codes above 11 bits
	for i := range skewed {
		k := 0
		for k < 30 && r.IntN(2) == 0 {
			k++
		}
		skewed[i] = byte(k)
	}
	ins := []input{
		{"empty", nil},
		{"1byte", []byte{'x'}},
		{"2bytes", []byte("ab")},
		{"15bytes", []byte("0123456789abcde")},
		{"16bytes", []byte("0123456789abcdef")},
		{"same-7", bytes.Repeat([]byte{0}, 7)},
		{"same-8", bytes.Repeat([]byte{'z'}, 8)},
		{"same-128KiB", bytes.Repeat([]byte{0xff}, MaxInput)},
		{"random-100", random(100)},
		{"random-5000", random(5000)},
		{"random-128KiB", random(MaxInput)},
		{"few-2", few(3000, 2)},
		{"few-3-small", few(40, 3)},
		{"few-26-900", few(900, 26)},
		{"few-26-1023", few(1023, 26)},
		{"few-26-1024", few(1024, 26)},
		{"few-26-20000", few(20000, 26)},
		{"repeat-abc", bytes.Repeat([]byte("abc"), 2000)},
		{"repeat-period-1000", bytes.Repeat(random(1000), 50)},
		{"text", []byte(strings.Repeat("It was the best of times, it was the worst of times, ", 90))},
		{"json-3200", jsonRecords(3200, 1)},
		{"json-5000", jsonRecords(5000, 2)},
		{"json-128KiB", jsonRecords(MaxInput, 3)},
		{"binary", binary},
		{"skewed", skewed},
		{"high-bytes", bytes.Map(func(r rune) rune { return r }, []byte(strings.Repeat("héllo wörld ☃ ", 300)))},
		{"json-plus-random", append(jsonRecords(4000, 4), random(4000)...)},
	}
	for _, n := range []int{255, 256, 257, 65791, 65792, 65793} {
		ins = append(ins, input{fmt.Sprintf("json-%d", n), jsonRecords(max(n, 8), uint64(n))[:n]})
	}
	return ins
}

func newDecoder(t testing.TB) *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// TestKlauspostDecodes checks that every input round-trips through
// klauspost's decoder, with one Encoder reused across them, and that the
// frame declares its size in a single segment.
func TestKlauspostDecodes(t *testing.T) {
	d := newDecoder(t)
	var e Encoder
	for _, in := range inputs() {
		z := e.AppendFrame(nil, in.b)
		got, err := d.DecodeAll(z, nil)
		if err != nil || !bytes.Equal(got, in.b) {
			t.Errorf("%s: %d bytes compress to %d, decode to %d bytes, %v", in.name, len(in.b), len(z), len(got), err)
			continue
		}
		var hdr zstd.Header
		if err := hdr.Decode(z); err != nil || !hdr.SingleSegment || !hdr.HasFCS || hdr.FrameContentSize != uint64(len(in.b)) || hdr.HasCheckSum {
			t.Errorf("%s: header %+v, %v", in.name, hdr, err)
		}
		t.Logf("%s: %d -> %d", in.name, len(in.b), len(z))
	}
}

// TestZstdCommandDecodes decodes every input's frame with Debian's zstd
// command, the reference implementation.
func TestZstdCommandDecodes(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	var e Encoder
	for _, in := range inputs() {
		z := e.AppendFrame(nil, in.b)
		cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
		cmd.Stdin = bytes.NewReader(z)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil || !bytes.Equal(out.Bytes(), in.b) {
			t.Errorf("%s: zstd -d: %v %s; %d bytes out of %d", in.name, err, stderr.Bytes(), out.Len(), len(in.b))
		}
	}
}

// TestAppendWithinLength checks that AppendFrame writes only the bytes it
// returns, after a prefix it keeps, whatever room dst has.
func TestAppendWithinLength(t *testing.T) {
	d := newDecoder(t)
	for _, in := range inputs() {
		for _, room := range []int{0, 1, 7, len(in.b) / 3, len(in.b) + 64} {
			for _, appendFrame := range []func(dst, src []byte) []byte{AppendFrame, AppendFrameChecksum} {
				out, _ := pooltest.WithinLength(t, in.name, []byte("prefix"), room, func(dst []byte) ([]byte, error) {
					return appendFrame(dst, in.b), nil
				})
				if got, err := d.DecodeAll(out[len("prefix"):], nil); err != nil || !bytes.Equal(got, in.b) {
					t.Fatalf("%s room %d: does not round-trip: %v", in.name, room, err)
				}
			}
		}
	}
}

// TestInPlace compresses a buffer into itself: AppendFrame reads all of
// src before it writes dst.
func TestInPlace(t *testing.T) {
	d := newDecoder(t)
	for _, in := range inputs() {
		buf := make([]byte, len(in.b), len(in.b)+len(in.b)/2+32)
		copy(buf, in.b)
		z := AppendFrameChecksum(buf[:0], buf) // the checksum is of src, not of what dst overwrote
		if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, in.b) {
			t.Errorf("%s: in place does not round-trip: %v", in.name, err)
		}
	}
}

// TestOverMaxInput checks the documented panic.
func TestOverMaxInput(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AppendFrame took MaxInput+1 bytes")
		}
	}()
	AppendFrame(nil, make([]byte, MaxInput+1))
}

// TestStaleTable runs many inputs through one Encoder, with its table's
// base close to the point where it is lowered, so that entries left by
// earlier inputs, and the rebasing, are met: each frame must decode, and
// be the frame a new Encoder writes.
func TestStaleTable(t *testing.T) {
	d := newDecoder(t)
	var e Encoder
	e.m.base = maxBase - 3*MaxInput
	ins := inputs()
	rebased := false
	for i := range 40 {
		in := ins[i%len(ins)]
		before := e.m.base
		z := e.AppendFrame(nil, in.b)
		rebased = rebased || e.m.base < before
		if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, in.b) {
			t.Fatalf("%s, base %d: does not round-trip: %v", in.name, e.m.base, err)
		}
		if want := new(Encoder).AppendFrame(nil, in.b); !bytes.Equal(z, want) {
			t.Fatalf("%s, base %d: %d bytes, a new Encoder writes %d others", in.name, e.m.base, len(z), len(want))
		}
	}
	if !rebased || e.m.base > maxBase {
		t.Errorf("base %d was never lowered", e.m.base)
	}
}

// TestHuffmanLimit checks that the code lengths built for the skewed
// input, whose plain Huffman code runs past 11 bits, are limited and form
// a complete code.
func TestHuffmanLimit(t *testing.T) {
	var h huffman
	for _, in := range inputs() {
		h.count = [256]uint32{}
		for _, c := range in.b {
			h.count[c]++
		}
		nsym := 0
		for s, c := range h.count {
			if c != 0 {
				h.sorted[nsym] = c<<8 | uint32(s)
				nsym++
			}
		}
		if nsym < 2 {
			continue
		}
		maxBits, _ := h.build(nsym)
		kraft := 0
		for s := range 256 {
			if l := h.length[s]; l != 0 {
				kraft += 1 << (maxCodeBits - l)
			} else if h.count[s] != 0 {
				t.Errorf("%s: symbol %d has no code", in.name, s)
			}
		}
		if maxBits > maxCodeBits || kraft != 1<<maxCodeBits {
			t.Errorf("%s: longest code %d bits, Kraft sum %d/%d", in.name, maxBits, kraft, 1<<maxCodeBits)
		}
	}
}

// TestAllocs checks that a warm Encoder, and the pooled AppendFrame into
// a dst with room, allocate nothing.
func TestAllocs(t *testing.T) {
	body := jsonRecords(5000, 9)
	var e Encoder
	dst := make([]byte, 0, 8<<10)
	e.AppendFrame(dst, body)
	pooltest.WantAllocs(t, 0, func() { e.AppendFrame(dst[:0], body) })
	AppendFrame(dst, body)
	pooltest.WantAllocs(t, 0, func() { AppendFrame(dst[:0], body) })
}

// FuzzRoundTrip compresses fuzzed input and decodes it with klauspost's
// decoder.
func FuzzRoundTrip(f *testing.F) {
	for _, in := range inputs() {
		if len(in.b) <= 8<<10 {
			f.Add(in.b)
		}
	}
	d := newDecoder(f)
	var e Encoder
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > MaxInput {
			b = b[:MaxInput]
		}
		enc := &e // one Encoder carries its tables from input to input
		if len(b)%3 == 0 {
			enc = new(Encoder) // or a new one, whose table is empty
		}
		z := enc.AppendFrame(nil, b)
		if len(b)%2 == 1 {
			z = enc.AppendFrameChecksum(nil, b)
		}
		got, err := d.DecodeAll(z, nil)
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%d bytes do not round-trip: %v", len(b), err)
		}
	})
}

// TestXXH64 checks the hash against the xxHash specification's known
// values for seed 0.
func TestXXH64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
	} {
		if got := xxh64([]byte(tc.in)); got != tc.want {
			t.Errorf("xxh64(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// TestChecksum checks frames with a content checksum: both decoders
// verify it, so every input must decode, and a frame whose content is
// changed after compression (a raw block's byte) must be refused.
func TestChecksum(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	d := newDecoder(t)
	var e Encoder
	for _, in := range inputs() {
		z := e.AppendFrameChecksum(nil, in.b)
		var hdr zstd.Header
		if err := hdr.Decode(z); err != nil || !hdr.HasCheckSum {
			t.Fatalf("%s: header %+v, %v", in.name, hdr, err)
		}
		if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, in.b) {
			t.Fatalf("%s: klauspost: %v", in.name, err)
		}
		cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
		cmd.Stdin = bytes.NewReader(z)
		if out, err := cmd.Output(); err != nil || !bytes.Equal(out, in.b) {
			t.Fatalf("%s: zstd -d: %v", in.name, err)
		}
	}
	var random []byte // stored in a raw block
	for _, in := range inputs() {
		if in.name == "random-5000" {
			random = in.b
		}
	}
	z := AppendFrameChecksum(nil, random)
	z[len(z)-10] ^= 1 // a content byte, not the checksum
	if _, err := d.DecodeAll(z, nil); err == nil {
		t.Error("klauspost decoded a frame whose content no longer matches its checksum")
	}
	cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
	cmd.Stdin = bytes.NewReader(z)
	if err := cmd.Run(); err == nil {
		t.Error("zstd -d decoded a frame whose content no longer matches its checksum")
	}
}

// TestFreshEncoder codes each input with a new Encoder, whose match table
// is all zeros: an empty entry must not pass for a position holding four
// zero bytes. (The skewed input, full of zero bytes, decoded wrongly
// when it did.)
func TestFreshEncoder(t *testing.T) {
	d := newDecoder(t)
	for _, in := range inputs() {
		var e Encoder
		z := e.AppendFrame(nil, in.b)
		if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, in.b) {
			t.Errorf("%s: a new Encoder's frame does not round-trip: %v", in.name, err)
		}
	}
}
