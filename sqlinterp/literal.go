package sqlinterp

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// kind is the type of an argument's value.
type kind uint8

const (
	kindNull kind = iota
	kindInt
	kindUint
	kindFloat
	kindBool
	kindTime
	kindString
	kindBytes // written _binary'…'
	kindJSON  // json.RawMessage, written '…'
)

// arg is one argument, unboxed: the one form both Append's driver.Value
// and Args' typed values are written from.
type arg struct {
	kind kind
	n    uint64 // kindInt (as uint64), kindUint, kindFloat (its bits), kindBool (0 or 1)
	s    string // kindString
	b    []byte // kindBytes, kindJSON
	t    time.Time
}

// toArg unboxes a driver.Value; ok is false for a type without a literal.
func toArg(v driver.Value) (a arg, ok bool) {
	switch v := v.(type) {
	case nil:
		a.kind = kindNull
	case int64:
		a.kind, a.n = kindInt, uint64(v)
	case uint64:
		a.kind, a.n = kindUint, v
	case float64:
		a.kind, a.n = kindFloat, math.Float64bits(v)
	case bool:
		a.kind = kindBool
		if v {
			a.n = 1
		}
	case time.Time:
		a.kind, a.t = kindTime, v
	case string:
		a.kind, a.s = kindString, v
	case []byte:
		a.kind, a.b = kindBytes, v
		if v == nil {
			a.kind = kindNull
		}
	case json.RawMessage:
		a.kind, a.b = kindJSON, v
		if v == nil {
			a.kind = kindNull
		}
	default:
		return a, false
	}
	return a, true
}

// sizes returns the fewest bytes a's literal can take (strings without
// escapes, numbers of one digit) and an estimate that is exact for
// numbers and leaves an eighth of slack for escapes in strings.
func (a *arg) sizes() (least, estimate int) {
	switch a.kind {
	case kindNull:
		return len("NULL"), len("NULL")
	case kindInt, kindUint:
		return 1, 20
	case kindFloat:
		return 1, 24
	case kindBool:
		return 1, 1
	case kindTime:
		return len("'0000-00-00'"), len("'2006-01-02 15:04:05.000000'")
	case kindString:
		return len(a.s) + 2, len(a.s) + len(a.s)/8 + 2
	case kindBytes:
		return len(a.b) + len("_binary''"), len(a.b) + len(a.b)/8 + len("_binary''")
	}
	return len(a.b) + 2, len(a.b) + len(a.b)/8 + 2 // kindJSON
}

// valueSizes is sizes for a driver.Value; a type without a literal fails
// later, when it is written.
func valueSizes(v driver.Value) (least, estimate int) {
	if a, ok := toArg(v); ok {
		return a.sizes()
	}
	return 0, 0
}

// appendValue appends v as a literal; start is where the output of this
// call began, for the size limit, and index is the argument's position, for
// errors.
func appendValue(dst []byte, start int, v driver.Value, index int, o *Options) ([]byte, error) {
	a, ok := toArg(v)
	if !ok {
		return dst, &ArgError{Index: index, Type: typeName(v), Err: ErrArgType}
	}
	return appendLiteral(dst, start, &a, index, o)
}

// appendLiteral appends a as a literal: every argument, from Append or
// AppendArgs, is written here.
func appendLiteral(dst []byte, start int, a *arg, index int, o *Options) ([]byte, error) {
	// Fixed-size literals are formatted on the stack first, so that room
	// knows their exact length before dst grows.
	var tmp [32]byte // the longest is a time, 28 bytes
	var lit []byte
	switch a.kind {
	case kindNull:
		lit = append(tmp[:0], "NULL"...)
	case kindInt:
		lit = strconv.AppendInt(tmp[:0], int64(a.n), 10)
	case kindUint:
		lit = strconv.AppendUint(tmp[:0], a.n, 10)
	case kindFloat:
		f := math.Float64frombits(a.n)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return dst, &ArgError{Index: index, Type: "float64", Err: ErrArgValue, Detail: strconv.FormatFloat(f, 'g', -1, 64) + " has no SQL literal"}
		}
		lit = strconv.AppendFloat(tmp[:0], f, 'g', -1, 64)
	case kindBool:
		lit = append(tmp[:0], byte('0'+a.n))
	case kindTime:
		var err error
		if lit, err = appendTime(tmp[:0], a.t, o.Location); err != nil {
			return dst, &ArgError{Index: index, Type: "time.Time", Err: ErrArgValue, Detail: err.Error()}
		}
	case kindString:
		return appendQuoted(dst, start, "'", a.s, o)
	case kindBytes:
		return appendQuoted(dst, start, "_binary'", a.b, o)
	case kindJSON:
		return appendQuoted(dst, start, "'", a.b, o)
	}
	dst, err := room(dst, start, len(lit), o)
	if err != nil {
		return dst, err
	}
	return append(dst, lit...), nil
}

// appendQuoted appends open, s escaped and a closing quote.
func appendQuoted[S ~string | ~[]byte](dst []byte, start int, open string, s S, o *Options) ([]byte, error) {
	n := len(open) + len(s) + 1 // without escapes
	if o.MaxSize > 0 && len(dst)-start+n > o.MaxSize {
		return dst, &SizeError{Max: o.MaxSize}
	}
	if cap(dst)-len(dst) < n+len(s) { // escapes might not fit: count them
		var err error
		if dst, err = room(dst, start, n+countEscapes(s, o.NoBackslashEscapes), o); err != nil {
			return dst, err
		}
	}
	dst = append(dst, open...)
	dst = appendEscaped(dst, s, o.NoBackslashEscapes)
	return append(dst, '\''), nil
}

// room returns dst with room for n more bytes, or a *SizeError when they
// would take this call's output, begun at start, past o.MaxSize: the limit
// is checked before dst grows.
func room(dst []byte, start, n int, o *Options) ([]byte, error) {
	if o.MaxSize > 0 && len(dst)-start+n > o.MaxSize {
		return dst, &SizeError{Max: o.MaxSize}
	}
	if cap(dst)-len(dst) >= n {
		return dst, nil
	}
	return grow(dst, start, n, o), nil
}

// grow returns a copy of dst with room for n more bytes, doubling its
// capacity when that is more, but never past start+o.MaxSize, which the
// caller has checked len(dst)+n does not exceed.
func grow(dst []byte, start, n int, o *Options) []byte {
	c := max(2*cap(dst), len(dst)+n)
	if o.MaxSize > 0 {
		c = min(c, start+o.MaxSize)
	}
	d := make([]byte, len(dst), c)
	copy(d, dst)
	return d
}

// backslashEscapes maps each byte that needs a backslash escape in a MySQL
// string literal to the letter after the backslash, the others to 0. These
// are the bytes mysql_real_escape_string escapes: only ', " and \ are
// required, NUL, \n, \r and \x1a (Ctrl-Z, end of file on Windows) are
// escaped so that the query text survives logs and terminals.
var backslashEscapes = [256]byte{
	0:      '0',
	'\n':   'n',
	'\r':   'r',
	'\x1a': 'Z',
	'\'':   '\'',
	'"':    '"',
	'\\':   '\\',
}

// countEscapes returns how many bytes appendEscaped adds to s: one per byte
// that gets a backslash or is a doubled quote.
func countEscapes[S ~string | ~[]byte](s S, noBackslash bool) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if noBackslash && s[i] == '\'' || !noBackslash && backslashEscapes[s[i]] != 0 {
			n++
		}
	}
	return n
}

// appendEscaped appends the contents of a '…' literal holding s. One
// generic function serves string and []byte: each gets its own compiled
// copy, so neither converts to the other (which would allocate).
func appendEscaped[S ~string | ~[]byte](dst []byte, s S, noBackslash bool) []byte {
	last := 0
	if noBackslash {
		// Only the quote is special: double it.
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				dst = append(dst, s[last:i+1]...)
				dst = append(dst, '\'')
				last = i + 1
			}
		}
		return append(dst, s[last:]...)
	}
	for i := 0; i < len(s); i++ {
		if e := backslashEscapes[s[i]]; e != 0 {
			dst = append(dst, s[last:i]...)
			dst = append(dst, '\\', e)
			last = i + 1
		}
	}
	return append(dst, s[last:]...)
}

const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// appendTime appends t as a quoted DATETIME literal in loc (UTC when nil).
func appendTime(dst []byte, t time.Time, loc *time.Location) ([]byte, error) {
	if t.IsZero() {
		return append(dst, "'0000-00-00'"...), nil
	}
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	year, month, day := t.Date()
	if year < 1 || year > 9999 {
		return dst, yearError(year)
	}
	hour, min, sec := t.Clock()
	y1, y2 := 2*(year/100), 2*(year%100)
	mo, d := 2*int(month), 2*day
	h, mi, s := 2*hour, 2*min, 2*sec
	dst = append(dst, '\'',
		digitPairs[y1], digitPairs[y1+1], digitPairs[y2], digitPairs[y2+1], '-',
		digitPairs[mo], digitPairs[mo+1], '-',
		digitPairs[d], digitPairs[d+1], ' ',
		digitPairs[h], digitPairs[h+1], ':',
		digitPairs[mi], digitPairs[mi+1], ':',
		digitPairs[s], digitPairs[s+1])
	if micro := t.Nanosecond() / 1000; micro != 0 {
		a, b, c := 2*(micro/10000), 2*(micro/100%100), 2*(micro%100)
		dst = append(dst, '.',
			digitPairs[a], digitPairs[a+1],
			digitPairs[b], digitPairs[b+1],
			digitPairs[c], digitPairs[c+1])
	}
	return append(dst, '\''), nil
}

type yearError int

func (y yearError) Error() string {
	return "year " + strconv.Itoa(int(y)) + " is outside the DATETIME range 1 to 9999"
}
