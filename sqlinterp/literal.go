package sqlinterp

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
	"github.com/poolkit/poolkit/internal/overlap"
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

// arg is one argument of an Args, unboxed.
type arg struct {
	kind kind
	n    uint64 // kindInt (as uint64), kindUint, kindFloat (its bits), kindBool (0 or 1)
	s    string // kindString
	b    []byte // kindBytes, kindJSON
	t    time.Time
}

// sizes returns the fewest bytes a's literal can take (strings without
// escapes, numbers of one digit) and an estimate that is exact for
// numbers and leaves an eighth of slack for escapes in strings. It is a
// table lookup, which the compiler inlines into the sizing loop: a's
// string and bytes are empty but for the kind that holds one (Add fills a
// zeroed slot, TestArgsSpareZero).
func (a *arg) sizes() (least, estimate int) {
	n := len(a.s) + len(a.b)
	f := &fixedSizes[a.kind&15]
	return n + f.least, n + n/8 + f.estimate
}

// fixedSizes holds, by kind, the bytes of a literal besides its string or
// bytes: the least and the estimate of sizes for an empty one.
var fixedSizes = [16]struct{ least, estimate int }{
	kindNull:   {len("NULL"), len("NULL")},
	kindInt:    {1, 20},
	kindUint:   {1, 20},
	kindFloat:  {1, 24},
	kindBool:   {1, 1},
	kindTime:   {len("'0000-00-00'"), len("'2006-01-02 15:04:05.000000'")},
	kindString: {2, 2},
	kindBytes:  {len("_binary''"), len("_binary''")},
	kindJSON:   {2, 2},
}

// mostPerArg bounds what a literal takes beyond twice its least size:
// every byte of a string escaped doubles it, and a number of one digit at
// least takes 24 bytes at most ("-2.2250738585072014e-308").
const mostPerArg = 22

// valueSizes is sizes for a driver.Value, which also returns the bytes of
// a string, []byte or json.RawMessage, for the overlap check, and refuses
// a value without a literal.
func valueSizes(v driver.Value, index int, o *Options) (least, estimate int, data *byte, size int, err error) {
	switch v := v.(type) {
	case nil:
		return len("NULL"), len("NULL"), nil, 0, nil
	case int64, uint64:
		return 1, 20, nil, 0, nil
	case float64:
		return 1, 24, nil, 0, floatArgError(v, index)
	case bool:
		return 1, 1, nil, 0, nil
	case time.Time:
		return len("'0000-00-00'"), len("'2006-01-02 15:04:05.000000'"), nil, 0, timeArgError(v, index, o)
	case string:
		return len(v) + 2, len(v) + len(v)/8 + 2, unsafe.StringData(v), len(v), nil
	case []byte:
		if v == nil {
			return len("NULL"), len("NULL"), nil, 0, nil
		}
		return len(v) + len("_binary''"), len(v) + len(v)/8 + len("_binary''"), unsafe.SliceData(v), len(v), nil
	case json.RawMessage:
		if v == nil {
			return len("NULL"), len("NULL"), nil, 0, nil
		}
		return len(v) + 2, len(v) + len(v)/8 + 2, unsafe.SliceData(v), len(v), nil
	}
	return 0, 0, nil, 0, &ArgError{Index: index, Type: typeName(v), Err: ErrArgType}
}

// argOf returns v as an arg, for the code that serves both; ok is false
// for a type without a literal. A nil []byte or json.RawMessage is NULL.
func argOf(v driver.Value) (a arg, ok bool) {
	switch v := v.(type) {
	case nil:
		return arg{kind: kindNull}, true
	case int64:
		return arg{kind: kindInt, n: uint64(v)}, true
	case uint64:
		return arg{kind: kindUint, n: v}, true
	case float64:
		return arg{kind: kindFloat, n: math.Float64bits(v)}, true
	case bool:
		a := arg{kind: kindBool}
		if v {
			a.n = 1
		}
		return a, true
	case time.Time:
		return arg{kind: kindTime, t: v}, true
	case string:
		return arg{kind: kindString, s: v}, true
	case []byte:
		if v == nil {
			return arg{kind: kindNull}, true
		}
		return arg{kind: kindBytes, b: v}, true
	case json.RawMessage:
		if v == nil {
			return arg{kind: kindNull}, true
		}
		return arg{kind: kindJSON, b: v}, true
	}
	return arg{}, false
}

// checkArgs is where appendQuery and appendParsed begin, before anything
// is written: it refuses an argument that shares memory with free, dst's
// spare capacity, or has no literal, and returns the least and the
// estimate of sizes summed over the arguments, vals or typed when it is
// not nil. Their literals take at most 2*least + mostPerArg*len bytes.
func checkArgs(free overlap.Region, vals []driver.Value, typed []arg, o *Options) (least, estimate int, err error) {
	if typed == nil {
		for i, v := range vals {
			// The common types, their sizes as valueSizes gives them,
			// without its call; the others through it.
			switch v := v.(type) {
			case int64, uint64:
				least, estimate = least+1, estimate+20
				continue
			case string:
				if free.Holds(unsafe.StringData(v), len(v)) {
					return 0, 0, overlapError(vals, nil, i)
				}
				least, estimate = least+len(v)+2, estimate+len(v)+len(v)/8+2
				continue
			case float64:
				if v-v == 0 { // not NaN or ±Inf, which floatArgError refuses
					least, estimate = least+1, estimate+24
					continue
				}
			case bool:
				least, estimate = least+1, estimate+1
				continue
			case []byte:
				if v == nil {
					least, estimate = least+len("NULL"), estimate+len("NULL")
					continue
				}
				if free.Holds(unsafe.SliceData(v), len(v)) {
					return 0, 0, overlapError(vals, nil, i)
				}
				least, estimate = least+len(v)+len("_binary''"), estimate+len(v)+len(v)/8+len("_binary''")
				continue
			}
			l, e, data, size, err := valueSizes(v, i, o)
			if err != nil {
				return 0, 0, err
			}
			if free.Holds(data, size) {
				return 0, 0, overlapError(vals, nil, i)
			}
			least += l
			estimate += e
		}
		return least, estimate, nil
	}
	for i := range typed {
		a := &typed[i]
		l, e := a.sizes()
		if a.kind == kindString {
			if free.Holds(unsafe.StringData(a.s), len(a.s)) {
				return 0, 0, overlapError(nil, typed, i)
			}
		} else if free.Holds(unsafe.SliceData(a.b), len(a.b)) {
			return 0, 0, overlapError(nil, typed, i)
		}
		if a.kind-kindFloat <= kindTime-kindFloat { // a float, bool or time
			var err error
			if a.kind == kindFloat {
				err = floatArgError(math.Float64frombits(a.n), i)
			} else if a.kind == kindTime {
				err = timeArgError(a.t, i, o)
			}
			if err != nil {
				return 0, 0, err
			}
		}
		least += l
		estimate += e
	}
	return least, estimate, nil
}

// floatArgError returns the *ArgError of a float argument at index that has
// no literal: a NaN or an infinity.
func floatArgError(v float64, index int) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return &ArgError{Index: index, Type: "float64", Err: ErrArgValue, Detail: strconv.FormatFloat(v, 'g', -1, 64) + " has no SQL literal"}
	}
	return nil
}

// timeArgError returns the *ArgError of a time argument at index that has no
// literal: one whose year in o.Location is outside 1 to 9999.
func timeArgError(t time.Time, index int, o *Options) error {
	// Most times are of the years 2 to 9998 in UTC, and so of 1 to 9999
	// in any zone less than a year from it: only the others need their
	// year in o.Location worked out.
	const first, end = -62104060800, 253370764800 // 0002-01-01 and 9999-01-01 UTC
	loc := o.Location
	if u := t.Unix(); u >= first && u < end {
		if loc == nil || loc == time.UTC {
			return nil
		}
		if _, offset := t.In(loc).Zone(); -365*86400 < offset && offset < 365*86400 {
			return nil
		}
	}
	if t.IsZero() {
		return nil
	}
	if loc == nil {
		loc = time.UTC
	}
	if year := t.In(loc).Year(); year < 1 || year > 9999 {
		return &ArgError{Index: index, Type: "time.Time", Err: ErrArgValue, Detail: yearError(year).Error()}
	}
	return nil
}

// literalsLen returns the bytes the literals of the arguments take, which
// checkArgs has accepted: what appendValue or appendLiteral appends.
func literalsLen(vals []driver.Value, typed []arg, o *Options) int {
	n := 0
	if typed != nil {
		for i := range typed {
			n += typed[i].length(o)
		}
		return n
	}
	for _, v := range vals {
		a, _ := argOf(v)
		n += a.length(o)
	}
	return n
}

// length returns the bytes of a's literal, as appendLiteral writes it.
func (a *arg) length(o *Options) int {
	switch a.kind {
	case kindInt:
		if int64(a.n) < 0 {
			return 1 + digits.Len(-a.n)
		}
		return digits.Len(a.n)
	case kindUint:
		return digits.Len(a.n)
	case kindFloat:
		var buf [24]byte
		return len(formatFloat(&buf, math.Float64frombits(a.n)))
	case kindBool:
		return 1
	case kindTime:
		switch {
		case a.t.IsZero():
			return len("'0000-00-00'")
		case a.t.Nanosecond() >= 1000:
			return len("'2006-01-02 15:04:05.000000'")
		}
		return len("'2006-01-02 15:04:05'")
	case kindString:
		return len(a.s) + countEscapes(a.s, o.NoBackslashEscapes) + len("''")
	case kindBytes:
		return len(a.b) + countEscapes(a.b, o.NoBackslashEscapes) + len("_binary''")
	case kindJSON:
		return len(a.b) + countEscapes(a.b, o.NoBackslashEscapes) + len("''")
	}
	return len("NULL")
}

// appendValue appends v as a literal; start is where the output of this
// call began, for the size limit, and index is the argument's position, for
// errors. It and appendLiteral share the writers below, one per type.
func appendValue(dst []byte, start int, v driver.Value, index int, o *Options) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return appendNull(dst, start, o)
	case int64:
		return appendInt(dst, start, v, o)
	case uint64:
		return appendUint(dst, start, v, o)
	case float64:
		return appendFloat(dst, start, v, index, o)
	case bool:
		return appendBool(dst, start, v, o)
	case time.Time:
		return appendTimeArg(dst, start, v, index, o)
	case string:
		return appendQuoted(dst, start, "'", v, o)
	case []byte:
		if v == nil {
			return appendNull(dst, start, o)
		}
		return appendQuoted(dst, start, "_binary'", v, o)
	case json.RawMessage:
		if v == nil {
			return appendNull(dst, start, o)
		}
		return appendQuoted(dst, start, "'", v, o)
	}
	return dst, &ArgError{Index: index, Type: typeName(v), Err: ErrArgType}
}

// appendLiteral is appendValue for an argument of an Args.
func appendLiteral(dst []byte, start int, a *arg, index int, o *Options) ([]byte, error) {
	switch a.kind {
	case kindInt:
		if fits(dst, start, len("-9223372036854775808"), o) { // appendInt, one call less
			return digits.AppendInt(dst, int64(a.n)), nil
		}
		return appendInt(dst, start, int64(a.n), o)
	case kindUint:
		return appendUint(dst, start, a.n, o)
	case kindFloat:
		return appendFloat(dst, start, math.Float64frombits(a.n), index, o)
	case kindBool:
		return appendBool(dst, start, a.n != 0, o)
	case kindTime:
		return appendTimeArg(dst, start, a.t, index, o)
	case kindString:
		if o.MaxSize <= 0 { // appendQuoted without a limit, one call less
			dst = append(dst, '\'')
			dst = appendEscaped(dst, a.s, o.NoBackslashEscapes)
			return append(dst, '\''), nil
		}
		return appendQuoted(dst, start, "'", a.s, o)
	case kindBytes:
		return appendQuoted(dst, start, "_binary'", a.b, o)
	case kindJSON:
		return appendQuoted(dst, start, "'", a.b, o)
	}
	return appendNull(dst, start, o)
}

// fits reports whether a literal of at most n bytes can be appended to dst
// directly: always without a limit (append's own growth is fine then), and
// under Options.MaxSize when it fits both dst's capacity and the limit.
// Otherwise the literal is formatted on the stack first and appended by
// appendFixed, which knows its exact length before dst grows.
func fits(dst []byte, start, n int, o *Options) bool {
	return o.MaxSize <= 0 || cap(dst)-len(dst) >= n && len(dst)-start+n <= o.MaxSize
}

// appendFixed appends lit, a literal formatted on the stack.
func appendFixed(dst []byte, start int, lit []byte, o *Options) ([]byte, error) {
	if o.MaxSize > 0 || cap(dst)-len(dst) < len(lit) {
		var err error
		if dst, err = roomSlow(dst, start, len(lit), o); err != nil {
			return dst, err
		}
	}
	return append(dst, lit...), nil
}

func appendNull(dst []byte, start int, o *Options) ([]byte, error) {
	return appendFixed(dst, start, []byte("NULL"), o)
}

func appendBool(dst []byte, start int, v bool, o *Options) ([]byte, error) {
	if v {
		return appendFixed(dst, start, []byte{'1'}, o)
	}
	return appendFixed(dst, start, []byte{'0'}, o)
}

func appendInt(dst []byte, start int, v int64, o *Options) ([]byte, error) {
	if fits(dst, start, len("-9223372036854775808"), o) {
		return digits.AppendInt(dst, v), nil
	}
	var tmp [20]byte
	return appendFixed(dst, start, digits.AppendInt(tmp[:0], v), o)
}

func appendUint(dst []byte, start int, v uint64, o *Options) ([]byte, error) {
	if fits(dst, start, len("18446744073709551615"), o) {
		return digits.AppendUint(dst, v), nil
	}
	var tmp [20]byte
	return appendFixed(dst, start, digits.AppendUint(tmp[:0], v), o)
}

func appendFloat(dst []byte, start int, v float64, index int, o *Options) ([]byte, error) {
	if err := floatArgError(v, index); err != nil {
		return dst, err
	}
	var buf [24]byte
	return appendFixed(dst, start, formatFloat(&buf, v), o)
}

// formatFloat formats v, finite, in its shortest form that reads back as
// v, as strconv.AppendFloat(nil, v, 'g', -1, 64) does, into buf, which
// "-2.2250738585072014e-308" fills. A decimal of at most 4 fractional
// digits from 1e-4 up to 1e6, where the 'g' form has no exponent (a price
// or a weight), it writes without strconv's search for the shortest
// digits; trying more places would make every other float, such as
// math.Pi, wait longer for strconv.
func formatFloat(buf *[24]byte, v float64) []byte {
	// A decimal of at most 4 places that reads back as v is at least
	// 1e-4 (or 0, which AppendShortFloat refuses). Times 1e4 it is
	// within 1.5 units in the last place of a whole number below 1e10,
	// less than 3e-6; a float farther than 1e-5 from one, as math.Pi
	// is, need not be tried. (Either way the text is strconv's.)
	if a := math.Abs(v); a < 1e6 && nearFourPlaces(a) {
		if lit, ok := digits.AppendShortFloat(buf[:0], v, 4); ok {
			return lit
		}
	}
	return strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
}

// nearFourPlaces reports whether a, from 0 up to 1e6, times 1e4 is
// within 1e-5 of a whole number, as every decimal of at most 4 places is
// (TestNearFourPlaces).
func nearFourPlaces(a float64) bool {
	f := a * 1e4
	frac := f - math.Floor(f)
	return frac < 1e-5 || frac > 1-1e-5
}

func appendTimeArg(dst []byte, start int, v time.Time, index int, o *Options) ([]byte, error) {
	var lit []byte
	var err error
	if fits(dst, start, len("'2006-01-02 15:04:05.000000'"), o) {
		dst, err = appendTime(dst, v, o.Location)
	} else {
		var tmp [28]byte
		if lit, err = appendTime(tmp[:0], v, o.Location); err == nil {
			return appendFixed(dst, start, lit, o)
		}
	}
	if err != nil {
		return dst, &ArgError{Index: index, Type: "time.Time", Err: ErrArgValue, Detail: err.Error()}
	}
	return dst, nil
}

// appendQuoted appends open, s escaped and a closing quote.
func appendQuoted[S ~string | ~[]byte](dst []byte, start int, open string, s S, o *Options) ([]byte, error) {
	if o.MaxSize > 0 {
		n := len(open) + len(s) + 1 // without escapes
		if len(dst)-start+n > o.MaxSize {
			return dst, &SizeError{Max: o.MaxSize}
		}
		// Growing as append does could pass the limit: unless even one
		// escape per byte fits, count them and grow for the exact size.
		if cap(dst)-len(dst) < n+len(s) {
			var err error
			if dst, err = room(dst, start, n+countEscapes(s, o.NoBackslashEscapes), o); err != nil {
				return dst, err
			}
		}
	}
	dst = append(dst, open...)
	dst = appendEscaped(dst, s, o.NoBackslashEscapes)
	return append(dst, '\''), nil
}

// reserve checks least, the fewest bytes the arguments and the query can
// take, against o.MaxSize before anything is allocated, and makes room in
// dst past start for estimate bytes, at most o.MaxSize, so that a result of
// the usual size needs one allocation at most.
func reserve(dst []byte, start, least, estimate int, o *Options) ([]byte, error) {
	if o.MaxSize > 0 {
		if least > o.MaxSize {
			return dst, &SizeError{Max: o.MaxSize}
		}
		estimate = min(estimate, o.MaxSize)
	}
	if cap(dst)-start < estimate {
		dst = grow(dst, start, estimate, o)
	}
	return dst, nil
}

// room returns dst with room for n more bytes, or a *SizeError when they
// would take this call's output, begun at start, past o.MaxSize: the limit
// is checked before dst grows.
func room(dst []byte, start, n int, o *Options) ([]byte, error) {
	if o.MaxSize <= 0 && cap(dst)-len(dst) >= n { // the common case, inlined
		return dst, nil
	}
	return roomSlow(dst, start, n, o)
}

func roomSlow(dst []byte, start, n int, o *Options) ([]byte, error) {
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
	if noBackslash {
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				n++
			}
		}
		return n
	}
	for i := 0; i < len(s); i++ {
		if backslashEscapes[s[i]] != 0 {
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

// appendTime appends t as a quoted DATETIME literal in loc (UTC when nil).
func appendTime(dst []byte, t time.Time, loc *time.Location) ([]byte, error) {
	if t.IsZero() {
		return append(dst, "'0000-00-00'"...), nil
	}
	var year, month, day, hour, min, sec int
	if loc == nil || loc == time.UTC {
		year, month, day, hour, min, sec = utcDate(t.Unix())
	} else {
		t = t.In(loc)
		var m time.Month
		year, m, day = t.Date()
		month = int(m)
		hour, min, sec = t.Clock()
	}
	if year < 1 || year > 9999 {
		return dst, yearError(year)
	}
	y1, y2 := 2*(year/100), 2*(year%100)
	mo, d := 2*month, 2*day
	h, mi, s := 2*hour, 2*min, 2*sec
	dst = append(dst, '\'',
		digits.Pairs[y1], digits.Pairs[y1+1], digits.Pairs[y2], digits.Pairs[y2+1], '-',
		digits.Pairs[mo], digits.Pairs[mo+1], '-',
		digits.Pairs[d], digits.Pairs[d+1], ' ',
		digits.Pairs[h], digits.Pairs[h+1], ':',
		digits.Pairs[mi], digits.Pairs[mi+1], ':',
		digits.Pairs[s], digits.Pairs[s+1])
	if micro := t.Nanosecond() / 1000; micro != 0 {
		a, b, c := 2*(micro/10000), 2*(micro/100%100), 2*(micro%100)
		dst = append(dst, '.',
			digits.Pairs[a], digits.Pairs[a+1],
			digits.Pairs[b], digits.Pairs[b+1],
			digits.Pairs[c], digits.Pairs[c+1])
	}
	return append(dst, '\''), nil
}

// utcDate returns the date and time of day in UTC of the Unix time u,
// which time.Time's In, Date and Clock reach through the time's location
// and a longer path. The date is the proleptic Gregorian calendar's, as
// time's is, found by counting whole 400-year eras (146097 days each) from
// 0000-03-01, then the years within the era, with each year starting in
// March so that a leap day is its last (Howard Hinnant's days_from_civil
// and civil_from_days, http://howardhinnant.github.io/date_algorithms.html).
func utcDate(u int64) (year, month, day, hour, min, sec int) {
	days, s := u/86400, u%86400
	if s < 0 {
		days, s = days-1, s+86400
	}
	hour, min, sec = int(s/3600), int(s/60%60), int(s%60)
	z := days + 719468 // days since 0000-03-01
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // day of the era, 0 to 146096
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // year of the era, 0 to 399
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // day of the year from March 1, 0 to 365
	mp := (5*doy + 2) / 153                                // month from March, 0 to 11
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if mp >= 10 {
		month = int(mp - 9)
	}
	year = int(yoe + era*400)
	if month <= 2 {
		year++
	}
	return year, month, day, hour, min, sec
}

type yearError int

func (y yearError) Error() string {
	return "year " + strconv.Itoa(int(y)) + " is outside the DATETIME range 1 to 9999"
}
