package zstdblock

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/internal/crosstalk"
	"github.com/poolkit/poolkit/internal/systool"
)

// priorInputs are what an Encoder may have coded before: the secret
// body, and every kind of input the encoder takes.
func priorInputs() []input {
	return append([]input{{"secret-5KB", crosstalk.Secret(5000)}, {"secret-128KiB", crosstalk.Secret(MaxInput)}}, inputs()...)
}

// frameOf is the frame a new Encoder writes for b.
func frameOf(b []byte, checksum bool) []byte {
	var e Encoder
	if checksum {
		return e.AppendFrameChecksum(nil, b)
	}
	return e.AppendFrame(nil, b)
}

// decodeAll checks that frames, concatenated, decode to want with
// klauspost's decoder and with the zstd command, which reads every frame
// of its input.
func decodeAll(t *testing.T, frames, want []byte) {
	t.Helper()
	zstdCmd := systool.Look(t, "zstd")
	if got, err := newDecoder(t).DecodeAll(frames, nil); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("klauspost decodes %d bytes of %d: %v", len(got), len(want), err)
	}
	cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
	cmd.Stdin = bytes.NewReader(frames)
	if out, err := cmd.Output(); err != nil || !bytes.Equal(out, want) {
		t.Fatalf("zstd -d: %d bytes of %d: %v", len(out), len(want), err)
	}
}

// TestFrameDependsOnlyOnInput codes an input after another with one
// Encoder: its frame must be the one a new Encoder writes, whatever came
// before (a client's secret token, random bytes, text, one byte...).
// Nothing an Encoder built for one frame, no Huffman code, table, count
// or position, may reach the next: a frame would tell its reader what
// another client's held.
func TestFrameDependsOnlyOnInput(t *testing.T) {
	priors := priorInputs()
	targets := append([]input{{"lowercase-5KB", crosstalk.Other(5000, 1)}, {"lowercase-128KiB", crosstalk.Other(MaxInput, 2)}}, inputs()...)
	var frames, want []byte
	for i, target := range targets {
		checksum := i%2 == 1
		fresh := frameOf(target.b, checksum)
		for _, prior := range priors {
			var e Encoder
			e.AppendFrame(nil, prior.b)
			var z []byte
			if checksum {
				z = e.AppendFrameChecksum(nil, target.b)
			} else {
				z = e.AppendFrame(nil, target.b)
			}
			if !bytes.Equal(z, fresh) {
				t.Errorf("%s after %s: %d bytes, not the %d a new Encoder writes", target.name, prior.name, len(z), len(fresh))
			}
		}
		frames = append(frames, fresh...)
		want = append(want, target.b...)
	}
	decodeAll(t, frames, want)
}

// TestPooledFrameDependsOnlyOnInput codes the secret body, then another
// client's, with the package's AppendFrame, whose Encoders are pooled:
// the second frame is the one a new Encoder writes.
func TestPooledFrameDependsOnlyOnInput(t *testing.T) {
	secret := crosstalk.Secret(5000)
	for i := range 20 {
		body := crosstalk.Other(3000+500*i, uint64(i))
		AppendFrame(nil, secret)
		if z := AppendFrame(nil, body); !bytes.Equal(z, frameOf(body, false)) {
			t.Errorf("body %d after the secret: %d bytes, not a new Encoder's frame", i, len(z))
		}
		AppendFrameChecksum(nil, secret)
		if z := AppendFrameChecksum(nil, body); !bytes.Equal(z, frameOf(body, true)) {
			t.Errorf("body %d after the secret, with a checksum: %d bytes, not a new Encoder's frame", i, len(z))
		}
	}
}

// TestStreamDependsOnlyOnInput streams a body after another through one
// Stream, each by every write plan (whole, flushed often, blocks over
// 128 KiB): its frame must be the one a new Stream writes.
func TestStreamDependsOnlyOnInput(t *testing.T) {
	priors := []input{
		{"secret-5KB", crosstalk.Secret(5000)},
		{"secret-300KiB", crosstalk.Secret(300 << 10)},
		{"random-json", streamBodies()[len(streamBodies())-1].b},
	}
	targets := []input{
		{"lowercase-5KB", crosstalk.Other(5000, 3)},
		{"lowercase-300KiB", crosstalk.Other(300<<10, 4)},
	}
	var frames, want []byte
	var s Stream
	for _, target := range targets {
		for _, plan := range writePlans {
			fresh := streamOf(t, new(Stream), nil, target.b, plan)
			for _, prior := range priors {
				for _, priorPlan := range []writePlan{writePlans[0], writePlans[2]} {
					streamOf(t, &s, nil, prior.b, priorPlan)
					if z := streamOf(t, &s, nil, target.b, plan); !bytes.Equal(z, fresh) {
						t.Errorf("%s (%s) after %s (%s): %d bytes, not the %d a new Stream writes",
							target.name, plan.name, prior.name, priorPlan.name, len(z), len(fresh))
					}
				}
			}
			frames = append(frames, fresh...)
			want = append(want, target.b...)
		}
	}
	// A Stream reset in the middle of a frame starts afresh too.
	var half bytes.Buffer
	s.Reset(&half)
	s.Write(priors[1].b)
	s.Flush()
	s.Write(priors[0].b)
	if z := streamOf(t, &s, nil, targets[0].b, writePlans[1]); !bytes.Equal(z, streamOf(t, new(Stream), nil, targets[0].b, writePlans[1])) {
		t.Errorf("after a frame left unfinished: %d bytes, not a new Stream's frame", len(z))
	}
	decodeAll(t, frames, want)
}

// TestConcurrentFramesDependOnlyOnInput codes bodies of several clients
// on many goroutines at once through the pooled AppendFrame: every frame
// must be the one a new Encoder writes for its body.
func TestConcurrentFramesDependOnlyOnInput(t *testing.T) {
	bodies := [][]byte{crosstalk.Secret(5000), crosstalk.Secret(40 << 10), []byte(strings.Repeat("x", 5000))}
	for i := range 6 {
		bodies = append(bodies, crosstalk.Other(2000+3000*i, uint64(10+i)))
	}
	for _, in := range inputs() {
		bodies = append(bodies, in.b)
	}
	want := make([][2][]byte, len(bodies))
	for i, b := range bodies {
		want[i] = [2][]byte{frameOf(b, false), frameOf(b, true)}
	}
	const goroutines, rounds = 16, 60
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 5))
			for range rounds {
				i, c := r.IntN(len(bodies)), r.IntN(2)
				var z []byte
				if c == 1 {
					z = AppendFrameChecksum(nil, bodies[i])
				} else {
					z = AppendFrame(nil, bodies[i])
				}
				if !bytes.Equal(z, want[i][c]) {
					errs <- fmt.Sprintf("goroutine %d: body %d (%d bytes): not a new Encoder's frame", g, i, len(bodies[i]))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var frames, all []byte
	for i, b := range bodies {
		frames = append(frames, want[i][i%2]...)
		all = append(all, b...)
	}
	decodeAll(t, frames, all)
}
