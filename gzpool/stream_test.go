package gzpool

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"weak"
)

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, part := range []string{"hello, ", "", "streaming ", "world"} {
		if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
			t.Fatalf("Write(%q) = %d, %v", part, n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	// After Flush, everything written so far decodes.
	r, err := NewReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 64)
	n, _ := io.ReadFull(r, got[:len("hello, streaming world")])
	if string(got[:n]) != "hello, streaming world" {
		t.Fatalf("after Flush read %q", got[:n])
	}
	r.Close()

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close: %v, want ErrClosed", err)
	}
	if err := w.Flush(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Flush after Close: %v, want ErrClosed", err)
	}
	if got := stdDecompress(t, b.Bytes()); string(got) != "hello, streaming world" {
		t.Fatalf("got %q", got)
	}

	var zero Writer
	if _, err := zero.Write(nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("zero Writer: %v", err)
	}
	if err := zero.Close(); err != nil {
		t.Fatal(err)
	}
}

// errWriter fails every write.
type errWriter struct{}

var errBoom = errors.New("boom")

func (errWriter) Write([]byte) (int, error) { return 0, errBoom }

func TestWriterError(t *testing.T) {
	w := NewWriter(errWriter{})
	_, _ = w.Write([]byte(overviewText))
	if err := w.Close(); !errors.Is(err, errBoom) {
		t.Fatalf("Close: %v, want the writer's error", err)
	}
	// The state went back to the pool reset: the next user is unharmed.
	z, err := AppendCompress(nil, []byte(overviewText))
	if err != nil || string(stdDecompress(t, z)) != overviewText {
		t.Fatal("pool poisoned by a failed stream")
	}
}

func TestReader(t *testing.T) {
	z, _ := AppendCompress(nil, []byte(overviewText))
	for _, tc := range []struct {
		name string
		r    func() io.Reader
	}{
		{"ByteReader", func() io.Reader { return bytes.NewReader(z) }},
		{"plain Reader", func() io.Reader { return &onlyReader{bytes.NewReader(z)} }},
		{"one byte at a time", func() io.Reader { return &oneByte{z} }},
	} {
		r, err := NewReader(tc.r())
		if err != nil {
			t.Fatal(tc.name, err)
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != overviewText {
			t.Fatalf("%s: %q, %v", tc.name, got, err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		if err := r.Close(); err != nil {
			t.Fatalf("%s: second Close: %v", tc.name, err)
		}
		if _, err := r.Read(got); !errors.Is(err, ErrClosed) {
			t.Fatalf("%s: Read after Close: %v", tc.name, err)
		}
	}
	var zero Reader
	if _, err := zero.Read(nil); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	if err := zero.Close(); err != nil {
		t.Fatal(err)
	}
}

// oneByte returns one byte per Read.
type oneByte struct{ b []byte }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(o.b) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], o.b = o.b[0], o.b[1:]
	return 1, nil
}

// failAfter returns its data, then err.
type failAfter struct {
	data []byte
	err  error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestNilStreams(t *testing.T) {
	w := NewWriter(nil)
	w.Write([]byte(overviewText))
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "nil io.Writer") {
		t.Errorf("Close of a Writer on nil: %v", err)
	}
	if _, err := NewReader(nil); err == nil {
		t.Error("NewReader(nil): no error")
	}
}

func TestReaderErrors(t *testing.T) {
	z, _ := AppendCompress(nil, []byte(overviewText))
	if _, err := NewReader(bytes.NewReader(nil)); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, err := NewReader(bytes.NewReader([]byte("not gzip at all"))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("not gzip: %v", err)
	}
	if _, err := NewReader(bytes.NewReader(z[:5])); !errors.Is(err, ErrTruncated) {
		t.Errorf("short header: %v", err)
	}
	r, err := NewReader(bytes.NewReader(z[:len(z)-3]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated body: %v", err)
	}
	r.Close()
	// The source's own error is passed through, not called corruption.
	r, err = NewReader(&failAfter{z[:len(z)/2], errBoom})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); !errors.Is(err, errBoom) || errors.Is(err, ErrCorrupt) {
		t.Errorf("source error: %v", err)
	}
	r.Close()
	if _, err := NewReader(&failAfter{nil, errBoom}); !errors.Is(err, errBoom) {
		t.Errorf("source error at the header: %v", err)
	}
}

// TestCloseDropsReferences checks that after Close nothing in the pools
// keeps the caller's writer or reader alive. Pooled objects survive one
// garbage collection (sync.Pool's victim cache), so an object still
// referenced from a pool would survive the collection each case runs. Each
// case runs alone, as the next Get would overwrite the references.
func TestCloseDropsReferences(t *testing.T) {
	z, _ := AppendCompress(nil, []byte(overviewText))

	t.Run("Writer", func(t *testing.T) {
		type bufWriter struct{ bytes.Buffer }
		dst := new(bufWriter)
		ref := weak.Make(dst)
		w := NewWriter(dst)
		if _, err := w.Write([]byte(overviewText)); err != nil {
			t.Fatal(err)
		}
		w.Close()
		dst = nil
		runtime.GC()
		if ref.Value() != nil {
			t.Error("a closed Writer's underlying writer is still referenced")
		}
		runtime.KeepAlive(w)
	})
	t.Run("ByteReader", func(t *testing.T) { checkReaderDropped(t, bytes.NewReader(z), -1) })
	t.Run("Reader", func(t *testing.T) { checkReaderDropped(t, &onlyReader{bytes.NewReader(z)}, -1) })
	t.Run("ByteReader half read", func(t *testing.T) { checkReaderDropped(t, bytes.NewReader(z), 10) })
	t.Run("Reader half read", func(t *testing.T) { checkReaderDropped(t, &onlyReader{bytes.NewReader(z)}, 10) })
}

// checkReaderDropped reads n bytes (all when n < 0) of src through a
// Reader, closes it, and checks that src is no longer referenced.
func checkReaderDropped[P interface {
	*E
	io.Reader
}, E any](t *testing.T, src P, n int) {
	ref := weak.Make((*E)(src))
	r, err := NewReader(src)
	if err != nil {
		t.Fatal(err)
	}
	if n < 0 {
		_, err = io.Copy(io.Discard, r)
	} else {
		_, err = io.ReadFull(r, make([]byte, n))
	}
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	src = nil
	runtime.GC()
	if ref.Value() != nil {
		t.Error("a closed Reader's source is still referenced")
	}
	runtime.KeepAlive(r)
}
