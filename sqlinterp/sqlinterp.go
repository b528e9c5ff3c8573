package sqlinterp

import (
	"database/sql/driver"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options describes the server session a query is interpolated for. The zero
// value suits a MySQL or MariaDB session with the default sql_mode and UTC
// times, with no size limit.
//
// No Options make a query with a ? after an executable comment (/*!, /*M!,
// /*+), after "--" and a byte from 0x7F up, or after a NUL byte acceptable:
// see "Refused queries" in the package documentation.
type Options struct {
	// Location is the time zone time.Time arguments are written in; nil
	// means UTC. It should match the zone the server interprets DATETIME
	// values in (go-sql-driver/mysql's loc parameter).
	Location *time.Location

	// NoBackslashEscapes must be true when the session's sql_mode contains
	// NO_BACKSLASH_ESCAPES. String values are then escaped by doubling their
	// single quotes, and a backslash inside a quoted part of the query is an
	// ordinary character.
	NoBackslashEscapes bool

	// ANSIQuotes must be true when the session's sql_mode contains
	// ANSI_QUOTES: "…" in the query is then a quoted identifier, in which a
	// backslash is an ordinary character.
	ANSIQuotes bool

	// MaxSize is the largest number of bytes one call may append; zero or
	// less means no limit. Past it the call fails with a *SizeError. A
	// driver sets it from the server's max_allowed_packet.
	MaxSize int
}

// Append appends query to dst with each ? placeholder replaced by the next
// argument as an SQL literal, and returns the extended slice.
//
// The arguments are the types database/sql hands a driver, plus uint64 and
// json.RawMessage (see the package documentation); other types are an
// error. The query's placeholders and len(args) must match.
//
// A query that breaks the package's rule (see "Refused queries" in the
// package documentation) is a *QueryError: any ? anywhere after an
// executable comment (/*!, /*!50700, /*M!, /*+), after "--" followed by a
// byte from 0x7F up, or after a NUL byte; a ? right after @ or \.
//
// Append does not keep dst or args and holds no state of its own, so calls
// with distinct dst may run concurrently. It allocates only when dst lacks the
// capacity for the result, and then grows it once to an estimate of the
// final size. On error it returns dst cut back to its original length (its
// capacity may have grown, so the result can still be reused) and an error
// that is a *CountError, *ArgError, *SizeError or *QueryError.
func Append(dst []byte, query string, args []driver.Value, opts Options) ([]byte, error) {
	start := len(dst)
	if err := checkNUL(query); err != nil {
		return dst, err
	}
	if need := estimate(query, args); cap(dst)-start < need {
		dst = slices.Grow(dst, need)
	}
	n := 0    // placeholders seen
	last := 0 // start of the query text not yet copied
	for {
		p, err := nextPlaceholder(query, last, &opts)
		if err != nil {
			return dst[:start], err
		}
		dst = append(dst, query[last:p]...)
		if p == len(query) {
			break
		}
		if n == len(args) {
			rest, err := countFrom(query, p+1, &opts)
			if err != nil {
				return dst[:start], err
			}
			return dst[:start], &CountError{Placeholders: n + 1 + rest, Args: len(args)}
		}
		if dst, err = appendArg(dst, start, args[n], n, &opts); err != nil {
			return dst[:start], err
		}
		n++
		last = p + 1
	}
	if n != len(args) {
		return dst[:start], &CountError{Placeholders: n, Args: len(args)}
	}
	if opts.MaxSize > 0 && len(dst)-start > opts.MaxSize {
		return dst[:start], &SizeError{Max: opts.MaxSize}
	}
	return dst, nil
}

// CountPlaceholders returns the number of ? placeholders in query, read as
// Append reads it with the same Options: those in code, not in quoted parts
// or comments. A driver can report it as its statements' NumInput. The
// error is a *QueryError when the query breaks the rule in the package
// documentation (a ? after an executable comment, for instance).
func CountPlaceholders(query string, opts Options) (int, error) {
	if err := checkNUL(query); err != nil {
		return 0, err
	}
	return countFrom(query, 0, &opts)
}

// countFrom counts the placeholders in query from i, which must be in code.
func countFrom(query string, i int, o *Options) (int, error) {
	n := 0
	for ; ; i++ {
		p, err := nextPlaceholder(query, i, o)
		if err != nil {
			return 0, err
		}
		if p == len(query) {
			return n, nil
		}
		n++
		i = p
	}
}

// special marks the bytes of a query that start a placeholder, a quoted part
// or a comment.
var special = [256]bool{'?': true, '\'': true, '"': true, '`': true, '#': true, '-': true, '/': true}

// nextPlaceholder returns the index of the first placeholder in query at or
// after i, which must be in code, or len(query) when there is none.
//
// It reads quoted parts and comments the way every MySQL and MariaDB server
// does, and stops at the first construct that some servers read otherwise
// (see untrusted): from there on the query must hold no ? at all.
func nextPlaceholder(query string, i int, o *Options) (int, error) {
	for i < len(query) {
		c := query[i]
		if !special[c] {
			i++
			continue
		}
		switch c {
		case '?':
			if i > 0 && (query[i-1] == '@' || query[i-1] == '\\') {
				return 0, &QueryError{Offset: i, Reason: "placeholder right after " + strconv.QuoteRune(rune(query[i-1])) +
					": @'…' is a variable name, in which a backslash escapes nothing, and \\ swallows the quote after it; put a space between them"}
			}
			return i, nil
		case '\'', '"', '`':
			i = skipQuoted(query, i, o)
		default:
			next, what := skipComment(query, i)
			if what != "" {
				return untrusted(query, i, what)
			}
			i = next
		}
	}
	return len(query), nil
}

// untrusted is called at query[at], a construct that servers read
// differently, so the query's reading from there on cannot be trusted. The
// rule is deliberately blunt, so that a reviewer can check it at a glance:
// any ? anywhere after it (in code, quotes or comments) makes the query an
// error; without one, nothing after it is replaced and it is copied as is.
func untrusted(query string, at int, what string) (int, error) {
	if k := strings.IndexByte(query[at:], '?'); k >= 0 {
		return 0, &QueryError{Offset: at, Reason: what + ", after which no ? may appear (there is one at byte " +
			strconv.Itoa(at+k) + "); put placeholders before it or use a server-side prepared statement"}
	}
	return len(query), nil
}

// checkNUL refuses a query with a ? after a NUL byte: MariaDB ends a line
// comment at a NUL and reads one in code as the end of the query.
func checkNUL(query string) error {
	if at := strings.IndexByte(query, 0); at >= 0 {
		_, err := untrusted(query, at, "a NUL byte, which ends a -- or # comment on MariaDB")
		return err
	}
	return nil
}

// skipQuoted returns the index just past the closing quote of the quoted
// part that starts at s[i], or len(s) when it is not closed. A doubled
// quote needs no special case: it closes the part and opens the next.
func skipQuoted(s string, i int, o *Options) int {
	quote := s[i]
	// A backslash escapes the next byte in '…', and in "…" unless
	// ANSI_QUOTES makes that an identifier; never in `…`.
	backslash := !o.NoBackslashEscapes && (quote == '\'' || quote == '"' && !o.ANSIQuotes)
	for i++; i < len(s); i++ {
		switch s[i] {
		case quote:
			return i + 1
		case '\\':
			if backslash {
				i++
			}
		}
	}
	return len(s)
}

// skipComment is called with s[i] one of '#', '-' or '/'. It returns the
// index past the comment that starts there, or i+1 when none does. When
// servers disagree on what starts there, it returns instead a description
// of the construct, for untrusted.
func skipComment(s string, i int) (next int, untrusted string) {
	switch s[i] {
	case '-':
		// "--" starts a comment when followed by a space or a control
		// character, or at the end of the query. Whether a byte from 0x7F
		// up is one depends on the connection character set (latin1
		// counts 0xA0 as a space, utf8mb4 does not).
		if i+1 >= len(s) || s[i+1] != '-' {
			return i + 1, ""
		}
		if i+2 < len(s) {
			if c := s[i+2]; c >= 0x7f {
				return i, "\"--\" followed by a byte from 0x7F up, a comment in some character sets and not in others"
			} else if c > ' ' {
				return i + 1, ""
			}
		}
		fallthrough
	case '#':
		if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
			return i + k, ""
		}
		return len(s), ""
	}
	// '/'
	if i+1 >= len(s) || s[i+1] != '*' {
		return i + 1, ""
	}
	if rest := s[i+2:]; strings.HasPrefix(rest, "!") || strings.HasPrefix(rest, "M!") || strings.HasPrefix(rest, "+") {
		// /*! … */ runs on every server, /*!50700 … */ on some versions,
		// /*M! … */ only on MariaDB, and /*+ … */ holds optimizer hints
		// that MySQL parses: where each ends depends on the server.
		return i, "an executable comment (/*!, /*M! or /*+)"
	}
	// An ordinary comment ends at the first */: comments do not nest.
	if k := strings.Index(s[i+2:], "*/"); k >= 0 {
		return i + 2 + k + 2, ""
	}
	return len(s), ""
}

// estimate returns a size for the interpolated query that is exact for
// numbers and leaves an eighth of slack for escapes in strings, so that a
// fresh buffer is allocated once for typical arguments.
func estimate(query string, args []driver.Value) int {
	n := len(query)
	for _, a := range args {
		switch v := a.(type) {
		case int64, uint64:
			n += 20
		case float64:
			n += 24
		case time.Time:
			n += len("'2006-01-02 15:04:05.000000'")
		case string:
			n += len(v) + len(v)/8 + 2
		case []byte:
			n += len(v) + len(v)/8 + len("_binary''")
		case json.RawMessage:
			n += len(v) + len(v)/8 + 2
		default:
			n += 4
		}
	}
	return n
}

// appendArg appends one argument as a literal; start is where the output of
// this Append call began, for the size limit, and index is the argument's
// position, for errors.
func appendArg(dst []byte, start int, arg driver.Value, index int, o *Options) ([]byte, error) {
	switch v := arg.(type) {
	case nil:
		dst = append(dst, "NULL"...)
	case int64:
		dst = strconv.AppendInt(dst, v, 10)
	case uint64:
		dst = strconv.AppendUint(dst, v, 10)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, &ArgError{Index: index, Type: "float64", Err: ErrArgValue, Detail: strconv.FormatFloat(v, 'g', -1, 64) + " has no SQL literal"}
		}
		dst = strconv.AppendFloat(dst, v, 'g', -1, 64)
	case bool:
		if v {
			dst = append(dst, '1')
		} else {
			dst = append(dst, '0')
		}
	case time.Time:
		var err error
		if dst, err = appendTime(dst, v, o.Location); err != nil {
			return dst, &ArgError{Index: index, Type: "time.Time", Err: ErrArgValue, Detail: err.Error()}
		}
	case string:
		if err := checkRoom(dst, start, len(v)+2, o); err != nil {
			return dst, err
		}
		dst = append(dst, '\'')
		dst = appendEscaped(dst, v, o.NoBackslashEscapes)
		dst = append(dst, '\'')
	case []byte:
		if v == nil {
			dst = append(dst, "NULL"...)
			break
		}
		if err := checkRoom(dst, start, len(v)+len("_binary''"), o); err != nil {
			return dst, err
		}
		dst = append(dst, "_binary'"...)
		dst = appendEscaped(dst, v, o.NoBackslashEscapes)
		dst = append(dst, '\'')
	case json.RawMessage:
		if v == nil {
			dst = append(dst, "NULL"...)
			break
		}
		if err := checkRoom(dst, start, len(v)+2, o); err != nil {
			return dst, err
		}
		dst = append(dst, '\'')
		dst = appendEscaped(dst, v, o.NoBackslashEscapes)
		dst = append(dst, '\'')
	default:
		return dst, &ArgError{Index: index, Type: typeName(arg), Err: ErrArgType}
	}
	return dst, checkRoom(dst, start, 0, o)
}

// checkRoom reports a *SizeError when appending at least more bytes to dst
// would take this call's output past the limit.
func checkRoom(dst []byte, start, more int, o *Options) error {
	if o.MaxSize > 0 && len(dst)-start+more > o.MaxSize {
		return &SizeError{Max: o.MaxSize}
	}
	return nil
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
