package zstdpool

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/crosstalk"
	"github.com/poolkit/poolkit/internal/race"
	"github.com/poolkit/poolkit/internal/systool"
	"github.com/poolkit/poolkit/internal/zstdblock"
)

// freshEncoder returns a new klauspost encoder made as the pool of level
// makes its encoders.
func freshEncoder(t testing.TB, level int) *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevel(level)), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(Window), zstd.WithEncoderCRC(true), zstd.WithLowerEncoderMem(true))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// freshCompress is AppendCompressLevel's frame for src from encoders that
// never coded anything else: zstdblock's for one block at SpeedFastest,
// klauspost's otherwise.
func freshCompress(t testing.TB, src []byte, level int) []byte {
	if level == SpeedFastest && len(src) <= zstdblock.MaxInput {
		return new(zstdblock.Encoder).AppendFrameChecksum(nil, src)
	}
	return freshEncoder(t, level).EncodeAll(src, nil)
}

// writes feeds src to w in pieces of 3000 bytes, flushing after every
// fourth when flush is set, and closes it.
func writes(t testing.TB, w interface {
	Write([]byte) (int, error)
	Flush() error
	Close() error
}, src []byte, flush bool) {
	for i := 0; len(src) > 0; i++ {
		k := min(len(src), 3000)
		if _, err := w.Write(src[:k]); err != nil {
			t.Fatal(err)
		}
		src = src[k:]
		if flush && i%4 == 3 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// freshStream is what NewWriterLevel writes for src, fed by writes, from
// an encoder that never coded anything else.
func freshStream(t testing.TB, src []byte, level int, flush bool) []byte {
	var out bytes.Buffer
	e := freshEncoder(t, level)
	e.Reset(&out)
	writes(t, e, src, flush)
	return out.Bytes()
}

// pooledStream is what NewWriterLevel writes for src, fed by writes.
func pooledStream(t testing.TB, src []byte, level int, flush bool) []byte {
	var out bytes.Buffer
	w, err := NewWriterLevel(&out, level)
	if err != nil {
		t.Fatal(err)
	}
	writes(t, w, src, flush)
	return out.Bytes()
}

// decodeEvery checks that frames, concatenated, decode to want with
// klauspost's decoder and with the zstd command.
func decodeEvery(t *testing.T, frames, want []byte) {
	t.Helper()
	zstdCmd := systool.Look(t, "zstd")
	if got := oracle(t, frames); !bytes.Equal(got, want) {
		t.Fatalf("klauspost decodes %d bytes of %d", len(got), len(want))
	}
	cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
	cmd.Stdin = bytes.NewReader(frames)
	if out, err := cmd.Output(); err != nil || !bytes.Equal(out, want) {
		t.Fatalf("zstd -d: %d bytes of %d: %v", len(out), len(want), err)
	}
}

// TestCompressDependsOnlyOnInput compresses one client's answer (holding a
// secret token), then another's, through the pooled paths at every
// level, whole (one block, several blocks, more than Window) and
// streamed (flushed or not): the second frame must be the one an encoder
// that never coded anything else writes. A frame that carried what the
// pooled encoder coded before (a Huffman code, tables, history) would
// tell its reader what the other client's answer held.
func TestCompressDependsOnlyOnInput(t *testing.T) {
	secrets := [][]byte{crosstalk.Secret(5000), crosstalk.Secret(300 << 10)}
	if race.Enabled {
		secrets = secrets[:1] // the detector makes the higher levels slow
	}
	bodies := [][]byte{crosstalk.Other(5000, 1), crosstalk.Other(zstdblock.MaxInput, 2), crosstalk.Other(300<<10, 3)}
	if !testing.Short() && !race.Enabled {
		bodies = append(bodies, crosstalk.Other(Window+200<<10, 4))
	}
	var frames, want []byte
	for level := SpeedFastest; level <= SpeedBestCompression; level++ {
		for _, body := range bodies {
			fresh := freshCompress(t, body, level)
			for _, secret := range secrets {
				if _, err := AppendCompressLevel(nil, secret, level); err != nil {
					t.Fatal(err)
				}
				z, err := AppendCompressLevel(nil, body, level)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(z, fresh) {
					t.Errorf("level %d, %d bytes after a %d-byte secret: %d bytes, a fresh encoder's %d", level, len(body), len(secret), len(z), len(fresh))
				}
			}
			frames = append(frames, fresh...)
			want = append(want, body...)
			if len(body) > 300<<10 {
				continue // streaming it too adds time and nothing new
			}
			for _, flush := range []bool{false, true} {
				fresh := freshStream(t, body, level, flush)
				for _, secret := range secrets {
					pooledStream(t, secret, level, !flush)
					if z := pooledStream(t, body, level, flush); !bytes.Equal(z, fresh) {
						t.Errorf("level %d, %d bytes streamed (flush %v) after a %d-byte secret: %d bytes, a fresh encoder's %d",
							level, len(body), flush, len(secret), len(z), len(fresh))
					}
				}
				frames = append(frames, fresh...)
				want = append(want, body...)
			}
		}
	}
	decodeEvery(t, frames, want)
}

// TestConcurrentCompressDependsOnlyOnInput compresses the answers of
// several clients on many goroutines at once, at every level, whole and
// streamed: every frame must be the one an encoder that never coded
// anything else writes.
func TestConcurrentCompressDependsOnlyOnInput(t *testing.T) {
	bodies := [][]byte{crosstalk.Secret(5000), crosstalk.Secret(150 << 10)}
	for i := range 4 {
		bodies = append(bodies, crosstalk.Other(3000+40000*i, uint64(20+i)))
	}
	type job struct {
		body, level int
		stream      bool
	}
	want := map[job][]byte{}
	var jobs []job
	var frames, all []byte
	for b, body := range bodies {
		for level := SpeedFastest; level <= SpeedBestCompression; level++ {
			for _, stream := range []bool{false, true} {
				j := job{b, level, stream}
				if stream {
					want[j] = freshStream(t, body, level, true)
				} else {
					want[j] = freshCompress(t, body, level)
				}
				jobs = append(jobs, j)
				frames = append(frames, want[j]...)
				all = append(all, body...)
			}
		}
	}
	goroutines, rounds := 8, 25
	if race.Enabled || testing.Short() {
		rounds = 4 // the detector makes the higher levels slow
	}
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 6))
			for range rounds {
				j := jobs[r.IntN(len(jobs))]
				var z []byte
				if j.stream {
					z = pooledStream(t, bodies[j.body], j.level, true)
				} else {
					var err error
					if z, err = AppendCompressLevel(nil, bodies[j.body], j.level); err != nil {
						errs <- err.Error()
						return
					}
				}
				if !bytes.Equal(z, want[j]) {
					errs <- fmt.Sprintf("goroutine %d: %+v: %d bytes, a fresh encoder's %d", g, j, len(z), len(want[j]))
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
	decodeEvery(t, frames, all)
}
