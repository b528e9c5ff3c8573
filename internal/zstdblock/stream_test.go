package zstdblock

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/systool"
)

// streamBodies returns bodies of the sizes around a block's edges, of
// five kinds: JSON-like, random, repetitive, one byte (RLE blocks), and
// random then JSON (a raw block between compressed ones, which must leave
// the decoder's repeated offsets as they were).
func streamBodies() []input {
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	json := jsonRecords(1<<20, 5)
	repetitive := bytes.Repeat([]byte("event: tick\ndata: {\"n\":1}\n\n"), 1<<20/27+1)
	var mixed []byte
	for i := 0; len(mixed) < 1<<20; i++ {
		mixed = append(mixed, random[i*5000:i*5000+5000]...)
		mixed = append(mixed, json[i*5000:i*5000+5000]...)
	}
	var ins []input
	for _, n := range []int{0, 1, MaxInput - 1, MaxInput, MaxInput + 1, 1 << 20} {
		kinds := []input{{"json", json}, {"random", random}, {"repetitive", repetitive},
			{"zeros", make([]byte, 1<<20)}, {"random-json", mixed}}
		for _, k := range kinds {
			ins = append(ins, input{fmt.Sprintf("%s-%d", k.name, n), k.b[:n]})
		}
	}
	return ins
}

// writePlan is how a test feeds a body to a Stream: writes of the sizes
// in sizes, round and round, and a Flush after every flushEvery-th write
// (never when 0).
type writePlan struct {
	name       string
	sizes      []int
	flushEvery int
}

var writePlans = []writePlan{
	{"whole", []int{1 << 30}, 0},
	{"flush-each-4KiB", []int{4 << 10}, 1},
	{"flush-some", []int{1000, 7919, 65536}, 3},
	{"odd-sizes", []int{1, 13, 4099, MaxInput + 3, 77}, 0},
	{"odd-flush-each", []int{1, 13, 4099, MaxInput + 3, 77}, 1},
}

// streamOf writes body to s, reset to a new frame, as plan says, checking
// after each Flush that what went out so far decodes to what was written
// (when d is not nil), and returns the frame.
func streamOf(t *testing.T, s *Stream, d *zstd.Decoder, body []byte, plan writePlan) []byte {
	var out bytes.Buffer
	s.Reset(&out)
	writes := 0
	for rest := body; len(rest) > 0; writes++ {
		k := min(len(rest), plan.sizes[writes%len(plan.sizes)])
		if n, err := s.Write(rest[:k]); n != k || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
		}
		rest = rest[k:]
		if plan.flushEvery > 0 && writes%plan.flushEvery == plan.flushEvery-1 {
			if err := s.Flush(); err != nil {
				t.Fatalf("Flush: %v", err)
			}
			if d != nil {
				written := len(body) - len(rest)
				checkPrefix(t, d, out.Bytes(), body[:written])
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes()
}

// checkPrefix checks that the unfinished frame z decodes, as a stream, to
// at least want, which it must start with.
func checkPrefix(t *testing.T, d *zstd.Decoder, z, want []byte) {
	t.Helper()
	if err := d.Reset(bytes.NewReader(z)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(want))
	if _, err := io.ReadFull(d, got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after Flush, %d bytes of frame do not decode to the %d written: %v", len(z), len(want), err)
	}
}

// TestStreamDecodes streams every body by every plan through one Stream,
// and decodes each frame with klauspost's decoder, checking its header:
// no content size, not single-segment, a window of StreamWindow.
func TestStreamDecodes(t *testing.T) {
	d := newDecoder(t)
	sd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()
	var s Stream
	for _, in := range streamBodies() {
		for _, plan := range writePlans {
			z := streamOf(t, &s, sd, in.b, plan)
			got, err := d.DecodeAll(z, nil)
			if err != nil || !bytes.Equal(got, in.b) {
				t.Errorf("%s %s: %d bytes compress to %d, decode to %d bytes, %v", in.name, plan.name, len(in.b), len(z), len(got), err)
				continue
			}
			var hdr zstd.Header
			if err := hdr.Decode(z); err != nil || hdr.SingleSegment || hdr.HasFCS || hdr.WindowSize != StreamWindow || hdr.HasCheckSum {
				t.Errorf("%s %s: header %+v, %v", in.name, plan.name, hdr, err)
			}
			if plan.name == "whole" {
				t.Logf("%s: %d -> %d", in.name, len(in.b), len(z))
			}
		}
	}
}

// TestStreamZstdCommandDecodes decodes every streamed frame with Debian's
// zstd command, the reference implementation.
func TestStreamZstdCommandDecodes(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	var s Stream
	for _, in := range streamBodies() {
		for _, plan := range writePlans {
			z := streamOf(t, &s, nil, in.b, plan)
			cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
			cmd.Stdin = bytes.NewReader(z)
			var out, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			if err := cmd.Run(); err != nil || !bytes.Equal(out.Bytes(), in.b) {
				t.Errorf("%s %s: zstd -d: %v %s; %d bytes out of %d", in.name, plan.name, err, stderr.Bytes(), out.Len(), len(in.b))
			}
		}
	}
}

// TestStreamRepeatOffsets streams records, one a block, that end in
// copies at distance 17 and start with a run of one byte (copies at
// distance 1, one of the offsets the decoder starts a frame with): every
// block after the first opens with the offsets the block before left the
// decoder, so a Stream that coded each block as if the decoder started
// afresh would code the run as a repeat the decoder reads as distance 17.
func TestStreamRepeatOffsets(t *testing.T) {
	d := newDecoder(t)
	var body []byte
	const recLen = 1000
	for i := range 40 {
		rec := fmt.Appendf(nil, "%c%s", 'a'+i%26, bytes.Repeat([]byte{'y'}, 30))
		rec = fmt.Appendf(rec, "rec-%03d-abcdefgh|", i)
		for j := 0; len(rec) < recLen; j++ {
			rec = append(rec, rec[len(rec)-17:len(rec)-1]...)
			rec = append(rec, byte('A'+j%26))
		}
		body = append(body, rec[:recLen]...)
	}
	var s Stream
	z := streamOf(t, &s, nil, body, writePlan{"flush-each-record", []int{recLen}, 1})
	got, err := d.DecodeAll(z, nil)
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("decodes to %d bytes of %d, %v", len(got), len(body), err)
	}
}

// errWriter fails every Write after the first ok ones.
type errWriter struct {
	ok  int
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.ok == 0 {
		return 0, w.err
	}
	w.ok--
	return len(p), nil
}

// TestStreamWriteError checks that the writer's first error comes back
// from the call that met it and from every call after, and that writing
// after Close fails.
func TestStreamWriteError(t *testing.T) {
	boom := errors.New("boom")
	var s Stream
	s.Reset(&errWriter{ok: 1, err: boom})
	body := jsonRecords(3*MaxInput, 11)
	if _, err := s.Write(body[:100]); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	n, err := s.Write(body)
	if !errors.Is(err, boom) || n >= len(body) {
		t.Fatalf("Write through a failing writer = %d, %v", n, err)
	}
	if err := s.Flush(); !errors.Is(err, boom) {
		t.Errorf("Flush after the error: %v", err)
	}
	if err := s.Close(); !errors.Is(err, boom) {
		t.Errorf("Close after the error: %v", err)
	}
	var out bytes.Buffer
	s.Reset(&out)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	got, err := newDecoder(t).DecodeAll(out.Bytes(), nil)
	if err != nil || len(got) != 0 {
		t.Errorf("an empty frame decodes to %d bytes, %v", len(got), err)
	}
}

// TestStreamAllocs checks that a Stream, once its buffers are grown,
// streams a frame with flushes, and one of several blocks, allocating
// nothing.
func TestStreamAllocs(t *testing.T) {
	body := jsonRecords(3*MaxInput+100, 12)
	var s Stream
	for _, plan := range []writePlan{{"flushed", []int{2000}, 1}, {"large", []int{1 << 30}, 0}, {"chunks", []int{32 << 10}, 0}} {
		run := func() {
			s.Reset(io.Discard)
			for rest := body; len(rest) > 0; {
				k := min(len(rest), plan.sizes[0])
				s.Write(rest[:k])
				if plan.flushEvery > 0 {
					s.Flush()
				}
				rest = rest[k:]
			}
			s.Close()
		}
		run()
		pooltest.WantAllocs(t, 0, run)
	}
}

// FuzzStream splits the fuzz input into writes and flushes, as its first
// bytes say, streams the rest, and decodes the frame with klauspost's
// decoder.
func FuzzStream(f *testing.F) {
	f.Add([]byte{3, 200, 7}, jsonRecords(5000, 1))
	f.Add([]byte{0xff, 0x80, 1}, bytes.Repeat([]byte("abcdefgh"), 40000))
	f.Add([]byte{}, []byte("x"))
	d := newDecoder(f)
	var s Stream
	f.Fuzz(func(t *testing.T, plan, b []byte) {
		if len(b) > 3*MaxInput {
			b = b[:3*MaxInput]
		}
		// Small inputs are made large by repetition, so that plans
		// cross block boundaries.
		if len(b) > 0 && len(b) < 64 && len(plan) > 0 && plan[0]&1 == 1 {
			b = bytes.Repeat(b, MaxInput/len(b)+int(plan[0]))
		}
		var out bytes.Buffer
		s.Reset(&out)
		for i, rest := 0, b; len(rest) > 0; i++ {
			k := len(rest)
			flush := false
			if len(plan) > 0 {
				p := plan[i%len(plan)]
				// Sizes from 1 byte to past a block, by the low 7 bits.
				k = min(k, 1+int(p&0x7f)*int(p&0x7f)*9)
				flush = p&0x80 != 0
			}
			if n, err := s.Write(rest[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
			rest = rest[k:]
			if flush {
				if err := s.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := d.DecodeAll(out.Bytes(), nil)
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%d bytes do not round-trip: %v", len(b), err)
		}
	})
}

// TestStreamEventsAcrossBlocks streams 200 short events, flushing after
// each, as a server-sent event stream does: each event is its own block,
// too short to compress alone, so the stream compresses only if a block's
// matches reach into the events before it. It must come to less than half
// the input; klauspost's stream encoder at SpeedFastest, for comparison,
// comes to about 36%.
func TestStreamEventsAcrossBlocks(t *testing.T) {
	var events []byte
	var ends []int
	for i := range 200 {
		events = fmt.Appendf(events, "data: {\"seq\":%d,\"price\":\"%d.%02d\",\"sym\":\"ABC\"}\n\n", i, 100+i%7, i%100)
		ends = append(ends, len(events))
	}
	var out, kout bytes.Buffer
	var s Stream
	s.Reset(&out)
	k, err := zstd.NewWriter(&kout, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(StreamWindow), zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	from := 0
	for _, end := range ends {
		s.Write(events[from:end])
		k.Write(events[from:end])
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		k.Flush()
		from = end
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	k.Close()
	got, err := newDecoder(t).DecodeAll(out.Bytes(), nil)
	if err != nil || !bytes.Equal(got, events) {
		t.Fatalf("the event stream does not round-trip: %v", err)
	}
	t.Logf("%d bytes of events, flushed one by one: %d bytes (klauspost's encoder: %d)", len(events), out.Len(), kout.Len())
	if out.Len() >= len(events)/2 {
		t.Errorf("%d bytes of events, flushed one by one, come to %d bytes", len(events), out.Len())
	}
}

// TestStreamStaleTable streams across the point where the matcher lowers
// its positions, which would otherwise outgrow 32 bits, in the middle of
// a frame whose blocks match into the history before them: through
// compressed blocks, and through RLE blocks (zeros), which skip the
// matcher. The body holds runs of zero bytes, which emptied entries must
// not be taken for. Each frame must decode, and be the frame a new Stream
// writes: lowering the positions loses none of the history.
func TestStreamStaleTable(t *testing.T) {
	d := newDecoder(t)
	body := jsonRecords(1<<20, 13)
	for i := 1000; i+9 < len(body); i += 997 {
		copy(body[i:], "\x00\x00\x00\x00\x00\x00\x00\x00\x01")
	}
	zeros := append(append(bytes.Clone(body[:3*MaxInput/2]), make([]byte, 3*MaxInput)...), body[:MaxInput]...)
	for _, in := range []input{{"json", body}, {"json-zeros-json", zeros}} {
		for _, plan := range []writePlan{{"whole", []int{1 << 30}, 0}, {"flush-each-3000", []int{3000}, 1}} {
			var s Stream
			s.e.m.base = maxBase - 2*MaxInput
			z := streamOf(t, &s, nil, in.b, plan)
			if s.e.m.base > maxBase {
				t.Fatalf("%s, %s: base %d was never lowered", in.name, plan.name, s.e.m.base)
			}
			got, err := d.DecodeAll(z, nil)
			if err != nil || !bytes.Equal(got, in.b) {
				t.Errorf("%s, %s: decodes to %d bytes of %d, %v", in.name, plan.name, len(got), len(in.b), err)
			}
			if want := streamOf(t, new(Stream), nil, in.b, plan); !bytes.Equal(z, want) {
				t.Errorf("%s, %s: %d bytes, a new Stream writes %d others", in.name, plan.name, len(z), len(want))
			}
		}
	}
}

// TestStreamRLEFirst starts a new Stream's frame with an RLE block, which
// does not go through the matcher, then a block with runs of zero bytes:
// the empty table's entries must not be taken for them.
func TestStreamRLEFirst(t *testing.T) {
	body := append(bytes.Repeat([]byte{'z'}, 100), jsonRecords(5000, 14)...)
	for i := 200; i+6 < len(body); i += 97 {
		copy(body[i:], "\x01\x00\x00\x00\x00\x02") // four zeros: no repeat at offset 1
	}
	var s Stream
	z := streamOf(t, &s, nil, body, writePlan{"rle-then-rest", []int{100, 1 << 30}, 1})
	got, err := newDecoder(t).DecodeAll(z, nil)
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("decodes to %d bytes of %d, %v", len(got), len(body), err)
	}
}
