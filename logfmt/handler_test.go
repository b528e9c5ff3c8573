package logfmt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/slogtest"
	"time"
)

// parseRecord reads one logfmt line back into the nested maps slogtest
// wants: a dotted key a.b.c becomes m["a"]["b"]["c"].
func parseRecord(t *testing.T, line []byte) map[string]any {
	t.Helper()
	recs := readBack(t, line)
	if len(recs) != 1 {
		t.Fatalf("want one record, got %d in %q", len(recs), line)
	}
	m := map[string]any{}
	kv := recs[0]
	for i := 0; i < len(kv); i += 2 {
		path := strings.Split(kv[i], ".")
		cur := m
		for _, g := range path[:len(path)-1] {
			sub, ok := cur[g].(map[string]any)
			if !ok {
				sub = map[string]any{}
				cur[g] = sub
			}
			cur = sub
		}
		cur[path[len(path)-1]] = kv[i+1]
	}
	return m
}

func TestSlogtest(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts *slog.HandlerOptions
	}{
		{"nil options", nil},
		// An identity ReplaceAttr takes the other path for every attribute.
		{"ReplaceAttr", &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr { return a }}},
		{"AddSource", &slog.HandlerOptions{AddSource: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			slogtest.Run(t,
				func(*testing.T) slog.Handler {
					buf.Reset()
					return NewHandler(&buf, tt.opts)
				},
				func(t *testing.T) map[string]any {
					return parseRecord(t, buf.Bytes())
				})
		})
	}
}

// bothHandlers logs the same calls through slog.TextHandler and through
// logfmt's handler and returns both outputs.
func bothHandlers(opts *slog.HandlerOptions, log func(*slog.Logger)) (text, ours string) {
	var tb, ob bytes.Buffer
	log(slog.New(slog.NewTextHandler(&tb, opts)))
	log(slog.New(NewHandler(&ob, opts)))
	return tb.String(), ob.String()
}

// On values that slog.TextHandler leaves bare or quotes without escapes,
// the two handlers write the same bytes.
func TestSameAsTextHandler(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 891234567, time.FixedZone("CET", 3600))
	fixed := func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && a.Value.Kind() == slog.KindTime {
			return slog.Time(a.Key, now)
		}
		return a
	}
	type point struct{ X, Y int }
	cases := map[string]func(*slog.Logger){
		"kinds": func(l *slog.Logger) {
			l.Info("hello world", "s", "str", "q", "two words", "i", -3, "u", uint64(7), "f", 2.5,
				"b", true, "d", 1500*time.Millisecond, "t", now, "e", errors.New("bad thing"),
				"nil", nil, "p", point{1, 2}, "lvl", slog.LevelWarn)
		},
		"levels": func(l *slog.Logger) {
			for _, lv := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn + 2, slog.LevelError + 4, -8} {
				l.Log(context.Background(), lv, "m")
			}
		},
		"groups": func(l *slog.Logger) {
			l.With("a", 1).WithGroup("G").With("b", 2).WithGroup("H").Warn("msg",
				"c", 3, slog.Group("I", "d", 4, slog.Group("", "e", 5)), slog.Group("empty"))
		},
		"empty message": func(l *slog.Logger) { l.Error("") },
	}
	for name, log := range cases {
		for _, opts := range []*slog.HandlerOptions{
			{ReplaceAttr: fixed, Level: slog.LevelDebug - 4},
			{ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {
				if len(g) == 0 && a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return slog.String(strings.ToUpper(a.Key), a.Value.String())
			}},
		} {
			text, ours := bothHandlers(opts, log)
			if text != ours {
				t.Errorf("%s:\ntext:   %s\nlogfmt: %s", name, text, ours)
			}
		}
	}
}

func TestHandlerEscapes(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime}))
	l.Info("line\nbreak", "nul", "\x00", "bad", "\xff\xfe", "bytes", []byte("a b"),
		"key with space", "v", "", "empty key", "q", `"quoted"`)
	want := `level=INFO msg="line\nbreak" nul="\u0000" bad="\ufffd\ufffd" bytes="a b" key_with_space=v _="empty key" q="\"quoted\""` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	recs := readBack(t, buf.Bytes())
	if got := recs[0][3]; got != "line\nbreak" {
		t.Errorf("msg read back as %q", got)
	}
}

func noTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

func TestHandlerLevel(t *testing.T) {
	ctx := context.Background()
	h := NewHandler(io.Discard, nil)
	if h.Enabled(ctx, slog.LevelDebug) || !h.Enabled(ctx, slog.LevelInfo) {
		t.Error("default level is not Info")
	}
	var lv slog.LevelVar
	lv.Set(slog.LevelWarn)
	h = NewHandler(io.Discard, &slog.HandlerOptions{Level: &lv}).WithGroup("g").WithAttrs([]slog.Attr{slog.Int("a", 1)})
	if h.Enabled(ctx, slog.LevelInfo) || !h.Enabled(ctx, slog.LevelWarn) {
		t.Error("LevelVar Warn not honoured")
	}
	lv.Set(slog.LevelDebug)
	if !h.Enabled(ctx, slog.LevelDebug) {
		t.Error("change of LevelVar not seen")
	}
}

func TestHandlerSource(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(NewHandler(&buf, &slog.HandlerOptions{AddSource: true, ReplaceAttr: noTime}))
	_, file, line, _ := runtime.Caller(0)
	l.Info("here") // must stay on the line after runtime.Caller
	want := fmt.Sprintf("level=INFO source=%s:%d msg=here\n", file, line+1)
	if strings.ContainsAny(file, " =\"") {
		want = fmt.Sprintf("level=INFO source=%s msg=here\n", AppendValue(nil, fmt.Sprintf("%s:%d", file, line+1)))
	}
	if got := buf.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// ReplaceAttr sees the source as *slog.Source, with nil groups.
	buf.Reset()
	var seen *slog.Source
	l = slog.New(NewHandler(&buf, &slog.HandlerOptions{AddSource: true, ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {
		if a.Key == slog.SourceKey {
			seen, _ = a.Value.Any().(*slog.Source)
			if g != nil {
				t.Errorf("source seen with groups %q", g)
			}
		}
		return a
	}})).WithGroup("G")
	l.Info("x")
	if seen == nil || seen.File != file || seen.Function == "" {
		t.Errorf("ReplaceAttr saw source %+v", seen)
	}
}

func TestHandlerReplaceAttr(t *testing.T) {
	var buf bytes.Buffer
	var calls []string
	h := NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {
		calls = append(calls, strings.Join(append(g, a.Key), "."))
		switch a.Key {
		case slog.TimeKey, "drop":
			return slog.Attr{}
		case "rename":
			return slog.String("renamed", a.Value.String())
		case "tog":
			return slog.Group("tog", slog.Int("x", 1))
		}
		return a
	}})
	l := slog.New(h).WithGroup("G").With("pre", 1)
	l.Info("m", "drop", 1, "rename", "v", "tog", 0, slog.Group("H", "k", "v"))
	want := "level=INFO msg=m G.pre=1 G.renamed=v G.tog.x=1 G.H.k=v\n"
	if got := buf.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantCalls := "G.pre time level msg G.drop G.rename G.tog G.tog.x G.H.k"
	if got := strings.Join(calls, " "); got != wantCalls {
		t.Errorf("ReplaceAttr calls:\ngot  %s\nwant %s", got, wantCalls)
	}
}

// countingValuer counts how often it is resolved.
type countingValuer struct{ n *atomic.Int32 }

func (v countingValuer) LogValue() slog.Value {
	v.n.Add(1)
	return slog.StringValue("resolved")
}

func TestWithAttrsFormattedOnce(t *testing.T) {
	var buf bytes.Buffer
	var replaced, resolved atomic.Int32
	h := NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {
		if a.Key == "pre" {
			replaced.Add(1)
		}
		return noTime(g, a)
	}})
	l := slog.New(h).With("pre", countingValuer{&resolved})
	for range 5 {
		l.Info("m")
	}
	if replaced.Load() != 1 || resolved.Load() != 1 {
		t.Errorf("WithAttrs attribute replaced %d and resolved %d times for 5 records, want 1 and 1",
			replaced.Load(), resolved.Load())
	}
	if want := strings.Repeat("level=INFO msg=m pre=resolved\n", 5); buf.String() != want {
		t.Errorf("got %s", buf.String())
	}
}

// Derived handlers do not write into each other's attributes.
func TestDerivedHandlersIndependent(t *testing.T) {
	var buf bytes.Buffer
	base := slog.New(NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime})).With("a", 1).WithGroup("G")
	x := base.With("x", 1)
	y := base.With("y", 2).WithGroup("H")
	base.Info("base", "k", 0)
	x.Info("x", "k", 1)
	y.Info("y", "k", 2)
	want := "level=INFO msg=base a=1 G.k=0\n" +
		"level=INFO msg=x a=1 G.x=1 G.k=1\n" +
		"level=INFO msg=y a=1 G.y=2 G.H.k=2\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

func TestDeepGroups(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime})).WithGroup("h")
	a := slog.Int("leaf", 1)
	var names []string
	for i := 12; i > 0; i-- {
		a = slog.Group("g"+strconv.Itoa(i), a, slog.Int("at"+strconv.Itoa(i), i))
	}
	for i := 1; i <= 12; i++ {
		names = append(names, "g"+strconv.Itoa(i))
	}
	l.Info("deep", a, "after", true)
	var want strings.Builder
	want.WriteString("level=INFO msg=deep h." + strings.Join(names, ".") + ".leaf=1")
	for i := 12; i > 0; i-- {
		want.WriteString(" h." + strings.Join(names[:i], ".") + ".at" + strconv.Itoa(i) + "=" + strconv.Itoa(i))
	}
	want.WriteString(" h.after=true\n")
	if got := buf.String(); got != want.String() {
		t.Errorf("got\n%swant\n%s", got, want.String())
	}
}

type panicky struct{ s *string }

func (p panicky) String() string { return *p.s }

type badText struct{}

func (badText) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

func TestHandlerAnyValues(t *testing.T) {
	var buf bytes.Buffer
	var nilErr *myErr
	l := slog.New(NewHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime}))
	l.Info("m", "panics", panicky{}, "nilerr", error(nilErr), "text", badText{}, "ip", textIP("10.0.0.1"),
		"map", map[string]int{"a b": 1})
	want := `level=INFO msg=m panics="%!v(PANIC=String method: runtime error: invalid memory address or nil pointer dereference)"` +
		` nilerr="!PANIC: runtime error: invalid memory address or nil pointer dereference"` +
		` text="!ERROR:no text" ip=10.0.0.1 map="map[a b:1]"` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

type myErr struct{ msg string }

func (e *myErr) Error() string { return e.msg }

type textIP string

func (ip textIP) MarshalText() ([]byte, error) { return []byte(ip), nil }

func TestHandlerWriteError(t *testing.T) {
	boom := errors.New("pipe closed")
	h := NewHandler(errWriter{boom}, nil)
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "m", 0)
	if err := h.Handle(context.Background(), r); err != boom {
		t.Errorf("Handle = %v, want %v", err, boom)
	}
	if err := NewHandler(shortWriter{}, nil).Handle(context.Background(), r); err != io.ErrShortWrite {
		t.Errorf("Handle on a short write = %v, want io.ErrShortWrite", err)
	}
}

func TestNewHandlerNilWriter(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "nil io.Writer") {
			t.Errorf("NewHandler(nil) recovered %v, want a panic about the nil writer", p)
		}
	}()
	NewHandler(nil, nil)
}

// lineWriter checks that Writes never overlap and each carries exactly one
// whole line, and keeps the lines.
type lineWriter struct {
	inFlight atomic.Int32
	mu       sync.Mutex // guards lines; taken only to record them
	lines    []string
	errs     atomic.Int32
}

func (w *lineWriter) Write(p []byte) (int, error) {
	if w.inFlight.Add(1) != 1 {
		w.errs.Add(1)
	}
	defer w.inFlight.Add(-1)
	if bytes.IndexByte(p, '\n') != len(p)-1 {
		w.errs.Add(1)
	}
	runtime.Gosched() // widen the window in which an overlap would show
	w.mu.Lock()
	w.lines = append(w.lines, string(p))
	w.mu.Unlock()
	return len(p), nil
}

func TestConcurrentWholeLines(t *testing.T) {
	w := &lineWriter{}
	root := slog.New(NewHandler(w, nil))
	const goroutines, perG = 16, 200
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine logs through its own derived logger, which
			// shares the writer and its mutex with the others.
			l := root.With("g", g).WithGroup("G" + strconv.Itoa(g))
			for i := range perG {
				l.LogAttrs(context.Background(), slog.LevelInfo, "concurrent message",
					slog.Int("i", i), slog.String("pad", strings.Repeat("x", i%50)))
			}
		}()
	}
	wg.Wait()
	if n := w.errs.Load(); n != 0 {
		t.Fatalf("%d overlapping or partial writes", n)
	}
	if len(w.lines) != goroutines*perG {
		t.Fatalf("%d lines, want %d", len(w.lines), goroutines*perG)
	}
	seen := make(map[string]bool)
	for _, line := range w.lines {
		kv := readBack(t, []byte(line))[0]
		// time level msg g G<g>.i G<g>.pad
		if len(kv) != 12 {
			t.Fatalf("bad line %q", line)
		}
		g := kv[7]
		if kv[8] != "G"+g+".i" || kv[10] != "G"+g+".pad" {
			t.Fatalf("line mixes goroutines: %q", line)
		}
		seen[g+"/"+kv[9]] = true
	}
	if len(seen) != goroutines*perG {
		t.Fatalf("%d distinct records, want %d", len(seen), goroutines*perG)
	}
}

// Five attributes of the kinds the package promises, as in the benchmarks.
func fiveAttrs() []slog.Attr {
	return []slog.Attr{
		slog.String("path", "/api/v1/users"),
		slog.Int("status", 200),
		slog.Float64("ratio", 0.25),
		slog.Duration("took", 1234*time.Microsecond),
		slog.Any("err", errConnRefused),
	}
}

var errConnRefused = errors.New("connection refused")

func TestHandlerAllocs(t *testing.T) {
	ctx := context.Background()
	attrs := fiveAttrs()
	now := time.Now()
	more := []slog.Attr{
		slog.Bool("cached", true), slog.Time("at", now), slog.Uint64("n", 7),
		slog.String("quoted", "needs \"quotes\"\n"), slog.Any("lvl", slog.LevelWarn),
	}
	group := slog.Attr{Key: "req", Value: slog.GroupValue(slog.String("id", "abc"), slog.Int("n", 2))}
	base := slog.New(NewHandler(io.Discard, nil))
	derived := base.With("svc", "api", "pid", 1234).WithGroup("http")
	tests := []struct {
		name string
		l    *slog.Logger
		as   []slog.Attr
	}{
		{"no attrs", base, nil},
		{"5 attrs", base, attrs},
		{"5 more attrs", base, more},
		{"group attr", base, []slog.Attr{group}},
		{"With and WithGroup", derived, attrs},
	}
	for _, tt := range tests {
		wantNoSteadyAllocs(t, tt.name, func() {
			tt.l.LogAttrs(ctx, slog.LevelInfo, "request done", tt.as...)
		})
	}
}
