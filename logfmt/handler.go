package logfmt

import (
	"context"
	"encoding"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/poolkit/poolkit/internal/digits"
)

// handler is the slog.Handler that NewHandler returns. Handlers derived
// with WithAttrs and WithGroup share the writer and its mutex.
type handler struct {
	w         io.Writer
	mu        *sync.Mutex // serialises Writes to w across derived handlers
	level     slog.Leveler
	addSource bool
	replace   func(groups []string, a slog.Attr) slog.Attr

	attrs  []byte   // the WithAttrs pairs, formatted once: "a=1 G.b=2"
	prefix []byte   // the WithGroup names as a key prefix: "G.H."
	groups []string // the WithGroup names, for ReplaceAttr
}

// NewHandler returns a slog.Handler that writes each record to w as one
// logfmt line, with one Write call:
//
//	time=2026-01-02T15:04:05.000Z level=INFO msg="user login" user.id=42 took=1.5ms
//
// The built-in attributes come first, under the keys slog.TimeKey,
// slog.LevelKey, slog.SourceKey (with opts.AddSource, as file:line) and
// slog.MessageKey, then the attributes of WithAttrs, formatted once when
// WithAttrs is called, then the record's own. Groups, from WithGroup or
// from group-valued attributes, become dotted key prefixes: G.H.key=value.
//
// Times, both the record's and time.Time values, are written in RFC 3339
// form with milliseconds, as slog.TextHandler writes them; durations as
// time.Duration.String writes them; floats in strconv's shortest 'g' form;
// errors as their Error text; encoding.TextMarshaler values as their text;
// other values as fmt's %+v. Values are quoted and escaped as the package
// documentation says, so that logfmt parsers read them back.
//
// opts may be nil, for the defaults of slog.HandlerOptions: records of
// level Info and above, no source, no ReplaceAttr. ReplaceAttr is called as
// slog.TextHandler calls it: for the built-in attributes with nil groups,
// and for every other non-group attribute with the groups it is in.
//
// Handle returns the error of w's Write. Writes to w are serialised with a
// mutex shared by all the handlers derived from this one, so records from
// many goroutines come out as whole lines, never interleaved, as long as
// nothing else writes to w.
//
// NewHandler panics if w is nil.
func NewHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	if w == nil {
		panic("logfmt: NewHandler called with a nil io.Writer")
	}
	h := &handler{w: w, mu: new(sync.Mutex)}
	if opts != nil {
		h.level = opts.Level
		h.addSource = opts.AddSource
		h.replace = opts.ReplaceAttr
	}
	return h
}

// Enabled reports whether l is at or above the handler's minimum level.
func (h *handler) Enabled(_ context.Context, l slog.Level) bool {
	min := slog.LevelInfo
	if h.level != nil {
		min = h.level.Level()
	}
	return l >= min
}

// WithAttrs returns a handler that writes attrs, formatted now, on every
// record after the built-in attributes.
func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	h2 := *h
	e := encoder{
		// A full slice expression, so that appending never writes into
		// the array h.attrs shares with h's other derived handlers.
		dst:     h.attrs[:len(h.attrs):len(h.attrs)],
		prefix:  h.prefix,
		groups:  h.groups,
		replace: h.replace,
	}
	for _, a := range attrs {
		e.attr(a)
	}
	h2.attrs = e.dst
	return &h2
}

// WithGroup returns a handler that writes the keys of the attributes added
// later, with WithAttrs or on records, as name.key.
func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.prefix = appendKeyPart(h.prefix[:len(h.prefix):len(h.prefix)], name)
	h2.prefix = append(h2.prefix, '.')
	h2.groups = append(h.groups[:len(h.groups):len(h.groups)], name)
	return &h2
}

// Handle writes r as one line to the handler's writer and returns the
// writer's error.
func (h *handler) Handle(_ context.Context, r slog.Record) error {
	buf := getBuffer()
	e := encoder{dst: buf.B, replace: h.replace}
	e.builtins(h, &r)
	if len(h.attrs) > 0 {
		e.sep()
		e.dst = append(e.dst, h.attrs...)
	}
	if r.NumAttrs() > 0 {
		e.prefix, e.groups = h.prefix, h.groups
		r.Attrs(func(a slog.Attr) bool {
			e.attr(a)
			return true
		})
	}
	buf.B = append(e.dst, '\n')
	err := h.write(buf.B)
	putBuffer(buf)
	return err
}

// write writes one line under the shared mutex. The unlock is deferred so
// that a writer that panics does not leave every other logger blocked.
func (h *handler) write(p []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := h.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return err
}

// encoder formats attributes into dst. It lives on Handle's stack.
type encoder struct {
	dst     []byte
	replace func(groups []string, a slog.Attr) slog.Attr
	groups  []string // the open groups, passed to replace

	// The key prefix of the open groups is prefix, which is shared and
	// never appended to, followed by the names in subs[:nsub], each with
	// a dot. subs holds the groups opened by the record's attributes in
	// an array, not a slice, so that the encoder, which the escape
	// analysis sees as leaking what its fields point to, stays on the
	// stack. Groups nested deeper than subs holds fold the names into a
	// new prefix and set folded, which allocates.
	prefix []byte
	subs   [8]string
	nsub   int
	folded bool
}

// sep starts a new pair, after a space unless the line is empty.
func (e *encoder) sep() {
	if len(e.dst) > 0 {
		e.dst = append(e.dst, ' ')
	}
}

// key writes the separator, the group prefix, key and '='.
func (e *encoder) key(key string) {
	e.sep()
	e.dst = append(e.dst, e.prefix...)
	for _, g := range e.subs[:e.nsub] {
		e.dst = AppendKey(e.dst, g)
		e.dst = append(e.dst, '.')
	}
	e.dst = AppendKey(e.dst, key)
	e.dst = append(e.dst, '=')
}

func (e *encoder) builtins(h *handler, r *slog.Record) {
	if e.replace != nil {
		e.builtinsReplaced(h, r)
		return
	}
	// The built-in keys are valid logfmt keys and sit in no group, so they
	// are written as they are, with no check.
	if !r.Time.IsZero() {
		e.sep()
		e.dst = append(e.dst, slog.TimeKey+"="...)
		e.dst = appendTimeMillis(e.dst, r.Time)
	}
	e.sep()
	e.dst = append(e.dst, slog.LevelKey+"="...)
	e.dst = appendLevel(e.dst, r.Level)
	if h.addSource && r.PC != 0 {
		e.dst = append(e.dst, " "+slog.SourceKey+"="...)
		e.source(source(r.PC))
	}
	e.dst = append(e.dst, " "+slog.MessageKey+"="...)
	e.dst = appendValue(e.dst, r.Message)
}

// builtinsReplaced writes the built-in attributes through ReplaceAttr,
// which sees them with nil groups.
func (e *encoder) builtinsReplaced(h *handler, r *slog.Record) {
	if !r.Time.IsZero() {
		e.attr(slog.Time(slog.TimeKey, r.Time))
	}
	e.attr(slog.Any(slog.LevelKey, r.Level))
	if h.addSource && r.PC != 0 {
		e.attr(slog.Any(slog.SourceKey, source(r.PC)))
	}
	e.attr(slog.String(slog.MessageKey, r.Message))
}

// attr writes a, resolved and passed through ReplaceAttr, unless it is
// empty; groups are written as their attributes with dotted keys.
//
// It asks for the value's kind once: Kind is a type switch with an
// interface case, which costs a call into the runtime for values of kind
// Any, such as errors.
func (e *encoder) attr(a slog.Attr) {
	k := a.Value.Kind()
	if k == slog.KindLogValuer {
		a.Value = a.Value.Resolve()
		k = a.Value.Kind()
	}
	if e.replace != nil && k != slog.KindGroup {
		a = e.replace(e.groups, a)
		a.Value = a.Value.Resolve()
		k = a.Value.Kind()
	}
	if k != slog.KindGroup {
		if a.Key == "" && k == slog.KindAny && a.Value.Any() == nil {
			return // the empty Attr, which handlers ignore
		}
		e.key(a.Key)
		e.value(k, a.Value)
		return
	}
	attrs := a.Value.Group()
	if len(attrs) == 0 {
		return
	}
	if a.Key == "" { // an inline group
		for _, ga := range attrs {
			e.attr(ga)
		}
		return
	}
	prefix, nsub, folded, groups := e.prefix, e.nsub, e.folded, e.groups
	if !e.folded && e.nsub < len(e.subs) {
		e.subs[e.nsub] = a.Key
		e.nsub++
	} else {
		p := append([]byte(nil), e.prefix...)
		for _, g := range e.subs[:e.nsub] {
			p = AppendKey(p, g)
			p = append(p, '.')
		}
		p = AppendKey(p, a.Key)
		e.prefix, e.nsub, e.folded = append(p, '.'), 0, true
	}
	if e.replace != nil {
		e.groups = append(groups[:len(groups):len(groups)], a.Key)
	}
	for _, ga := range attrs {
		e.attr(ga)
	}
	e.prefix, e.nsub, e.folded, e.groups = prefix, nsub, folded, groups
}

// value writes v, whose kind is k.
func (e *encoder) value(k slog.Kind, v slog.Value) {
	switch k {
	case slog.KindString:
		e.dst = appendValue(e.dst, v.String())
	case slog.KindInt64:
		e.dst = strconv.AppendInt(e.dst, v.Int64(), 10)
	case slog.KindUint64:
		e.dst = strconv.AppendUint(e.dst, v.Uint64(), 10)
	case slog.KindFloat64:
		e.dst = strconv.AppendFloat(e.dst, v.Float64(), 'g', -1, 64)
	case slog.KindBool:
		e.dst = strconv.AppendBool(e.dst, v.Bool())
	case slog.KindDuration:
		e.dst = appendDuration(e.dst, v.Duration())
	case slog.KindTime:
		e.dst = appendTimeMillis(e.dst, v.Time())
	default: // KindAny; groups and LogValuers are resolved by attr
		e.any(v.Any())
	}
}

// any writes a value of kind Any. A method of x that panics, as the methods
// of a nil pointer do, writes the panic in place of the value, as
// slog.TextHandler does, rather than bringing the program down.
func (e *encoder) any(x any) {
	start := len(e.dst)
	defer func() {
		if p := recover(); p != nil {
			e.dst = e.dst[:start]
			e.dst = appendValue(e.dst, fmt.Sprintf("!PANIC: %v", p))
		}
	}()
	switch x := x.(type) {
	case nil:
		e.dst = append(e.dst, "<nil>"...)
	case error:
		e.dst = appendValue(e.dst, x.Error())
	case slog.Level:
		e.dst = appendLevel(e.dst, x)
	case *slog.Source:
		e.source(x)
	case encoding.TextMarshaler:
		b, err := x.MarshalText()
		if err != nil {
			e.dst = appendValue(e.dst, "!ERROR:"+err.Error())
			return
		}
		e.dst = appendValue(e.dst, b)
	case []byte:
		e.dst = appendValue(e.dst, x)
	default:
		e.dst = fmt.Appendf(e.dst, "%+v", x)
		e.quoteFrom(start)
	}
}

// source writes file:line.
func (e *encoder) source(src *slog.Source) {
	if src == nil {
		e.dst = append(e.dst, "<nil>"...)
		return
	}
	start := len(e.dst)
	e.dst = append(e.dst, src.File...)
	e.dst = append(e.dst, ':')
	e.dst = strconv.AppendInt(e.dst, int64(src.Line), 10)
	e.quoteFrom(start)
}

// quoteFrom quotes dst[start:], written raw, if it needs quotes. It copies
// the raw text first, which allocates, but only for values that need quotes.
func (e *encoder) quoteFrom(start int) {
	if raw := e.dst[start:]; needsQuotes(raw) {
		e.dst = appendQuoted(e.dst[:start], string(raw))
	}
}

// source returns the location of the function that pc is in.
func source(pc uintptr) *slog.Source {
	fs := runtime.CallersFrames([]uintptr{pc})
	f, _ := fs.Next()
	return &slog.Source{Function: f.Function, File: f.File, Line: f.Line}
}

// appendLevel appends l as l.String() writes it ("INFO", "WARN+2"),
// without allocating.
func appendLevel(dst []byte, l slog.Level) []byte {
	name, base := "ERROR", slog.LevelError
	switch {
	case l < slog.LevelInfo:
		name, base = "DEBUG", slog.LevelDebug
	case l < slog.LevelWarn:
		name, base = "INFO", slog.LevelInfo
	case l < slog.LevelError:
		name, base = "WARN", slog.LevelWarn
	}
	dst = append(dst, name...)
	if off := int64(l) - int64(base); off != 0 {
		if off > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, off, 10)
	}
	return dst
}

// appendTimeMillis appends t in RFC 3339 form with milliseconds, as
// t.Format("2006-01-02T15:04:05.000Z07:00") and slog.TextHandler write it.
// It writes the whole seconds with appendSeconds and inserts the
// milliseconds before the zone, which is "Z" or "±hh:mm".
func appendTimeMillis(dst []byte, t time.Time) []byte {
	dst, zone := appendSeconds(dst, t)
	at := len(dst) - zone
	ms := t.Nanosecond() / int(time.Millisecond)
	dst = append(dst, ".000"...)
	copy(dst[at+4:], dst[at:at+zone])
	dst[at] = '.'
	digits.Put(dst[at+1:at+4], uint64(ms))
	return dst
}
