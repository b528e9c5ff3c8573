package sqlinterp

import (
	"database/sql/driver"
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
	"github.com/poolkit/poolkit/internal/overlap"
)

// Options describes the server session a query is interpolated for. The zero
// value suits a MySQL or MariaDB session with the default sql_mode and UTC
// times, with no size limit.
//
// No Options make a query with a ? after an executable comment (/*!, /*M!,
// /*+) that is not plain, after "--" and a byte from 0x7F up, or after a
// NUL byte acceptable: see "Refused queries" in the package documentation.
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
	// less means no limit. Past it the call fails with a *SizeError. It
	// bounds memory too: the limit is checked before dst grows, and dst's
	// capacity never grows past MaxSize bytes beyond its original length,
	// so a driver keeping one buffer per connection keeps at most that. A
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
// executable comment (/*!, /*!50700, /*M!, /*+) that is not plain (names,
// numbers and operators only), after "--" followed by a byte from 0x7F up,
// or after a NUL byte; a ? right after @ or \.
//
// A literal that would touch a quote, a word, another literal or the sign
// of an exponent (1e-?) gets a space on that side: "SELECT ??" gives "SELECT 'a' 'b'", where the two
// literals written together would be one string to the server (see the
// package documentation).
//
// Append does not keep dst or args and holds no state of its own, so calls
// with distinct dst may run concurrently. It allocates only when dst lacks the
// capacity for the result, and then grows it once to an estimate of the
// final size, more only when escapes (or the spaces between touching
// literals) take the result past it. With Options.MaxSize set, the limit
// is checked before dst grows: a result that cannot fit is a *SizeError
// before anything is allocated (when even its least size fits, and its
// most might not, its exact size is added up first), and dst is never
// grown past MaxSize bytes beyond its original length.
//
// Append writes into dst's spare capacity, dst[len(dst):cap(dst)], so an
// argument (or, through unsafe, the query) sharing memory with it would be
// overwritten before it is read: Append refuses such a call, writing
// nothing, with an *ArgError whose Err is ErrOverlap (a *QueryError for the
// query). Arguments may alias dst[:len(dst)], which Append only reads.
//
// On error Append returns dst cut back to its original length and an
// error that is a *CountError, *ArgError, *SizeError or *QueryError. It finds
// every fault before it writes a byte, so a failed call leaves dst's
// spare capacity as it was, and a successful one writes nothing past the
// length it returns. The arguments are checked first (an *ArgError for the
// first without a literal or sharing memory with dst), then the query (a
// *QueryError, then a *CountError), then the size (a *SizeError).
func Append(dst []byte, query string, args []driver.Value, opts Options) ([]byte, error) {
	return appendQuery(dst, query, args, nil, &opts)
}

// appendQuery is Append and AppendArgs: the arguments are vals, or typed
// when it is not nil. One loop and one writer of literals serve both.
func appendQuery(dst []byte, query string, vals []driver.Value, typed []arg, o *Options) ([]byte, error) {
	start := len(dst)
	nargs := len(vals)
	if typed != nil {
		nargs = len(typed)
	}
	// Writing goes to dst[len(dst):cap(dst)]: an input there (an
	// argument, or a query made from dst with unsafe) would be overwritten
	// before it is read, so Append refuses it. Memory before len(dst) is
	// only read, so an argument may alias dst's contents.
	free := overlap.SpareRegion(dst)
	if free.Holds(unsafe.StringData(query), len(query)) {
		return dst, &QueryError{Offset: 0, Reason: "the query shares memory with dst beyond its length, which Append overwrites; pass a copy or another dst"}
	}
	if err := checkNUL(query); err != nil {
		return dst, err
	}
	// Everything that can fail is checked before anything is written, so
	// that an error leaves dst's spare capacity as it was: the arguments
	// (each has a literal, none overlaps dst), then the query (where its
	// placeholders are, how many), then the size.
	least, estimate, err := checkArgs(free, vals, typed, o)
	if err != nil {
		return dst, err
	}
	var found [64]int32 // the first placeholders, as holes
	count, kept, err := findPlaceholders(query, o, &found)
	if err != nil {
		return dst, err
	}
	holes := found[:kept]
	if count != nargs {
		return dst, &CountError{Placeholders: count, Args: nargs}
	}
	if o.MaxSize <= 0 && kept == count {
		return appendHoles(dst, query, holes, vals, typed, estimate, o)
	}
	// The query's own bytes, to which the literals add, and the spaces
	// between them: at most two per placeholder. When the most the output
	// can take (see checkArgs) passes MaxSize, its exact size decides.
	fixed := len(query) - nargs
	if o.MaxSize > 0 && fixed+2*nargs+2*least+mostPerArg*nargs > o.MaxSize {
		least = fixed + querySpaces(query, holes, nargs, o) + literalsLen(vals, typed, o)
		estimate = least
	} else {
		least, estimate = fixed+least, len(query)+estimate
	}
	if dst, err = reserve(dst, start, least, estimate, o); err != nil {
		return dst, err
	}
	last := 0 // start of the query text not yet copied
	for n := 0; ; n++ {
		var p int
		if n < len(holes) { // placeholder's common case, inlined
			p = int(holes[n] >> holeShift)
		} else {
			p = placeholder(query, holes, n, nargs, last, o)
		}
		// The text up to the placeholder, with the spaces that keep the
		// literals on either side apart from it: grown for as one, as
		// appendParsed grows for a segment, in which Parse puts them.
		before, after := spaceAround(query, last, p, n)
		if k := before + p - last + after; o.MaxSize > 0 || cap(dst)-len(dst) < k {
			if dst, err = roomSlow(dst, start, k, o); err != nil {
				return dst[:start], err
			}
		}
		if before != 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, query[last:p]...)
		if after != 0 {
			dst = append(dst, ' ')
		}
		if p >= len(query) {
			break
		}
		if typed != nil {
			dst, err = appendLiteral(dst, start, &typed[n], n, o)
		} else {
			dst, err = appendValue(dst, start, vals[n], n, o)
		}
		if err != nil {
			return dst[:start], err
		}
		last = p + 1
	}
	if o.MaxSize > 0 && len(dst)-start > o.MaxSize {
		return dst[:start], &SizeError{Max: o.MaxSize}
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

// findPlaceholders returns the number of placeholders in query, having
// stored the first of them in found as holes (the first kept, all of them
// when they fit, none when the query is too long for a hole's offset), or
// the error that refuses the query.
//
// Its loop steps over the bytes that are code and cannot start a quoted
// part or a comment, and takes a ? with nothing before it that refuses it
// as a placeholder at once; from any other byte of special it reads on as
// nextPlaceholder does. The checks of comments and executable comments
// run only there, and the bytes around a placeholder are looked up once,
// here, so that a query with no quote, no comment and no literal that
// touches its neighbours pays for none of them.
func findPlaceholders(query string, o *Options, found *[64]int32) (count, kept int, err error) {
	keep := len(found)
	if len(query) > math.MaxInt32>>holeShift {
		keep = 0
	}
	for i := 0; i < len(query); i++ {
		c := query[i]
		if !special[c] {
			continue
		}
		if c != '?' || i > 0 && (query[i-1] == '@' || query[i-1] == '\\') {
			p, err := nextPlaceholder(query, i, o)
			if err != nil {
				return 0, 0, err
			}
			if p == len(query) {
				break
			}
			i = p
		}
		if count < keep { // the hole, written out here, where the calls inline
			h := int32(i) << holeShift
			if spaceBefore(query, i) {
				h |= holeSpaceBefore
			}
			if spaceAfter(query, i) {
				h |= holeSpaceAfter
			}
			found[count] = h
		}
		count++
	}
	return count, min(count, keep), nil
}

// A hole is a placeholder as findPlaceholders keeps it: its offset in the
// query shifted left by holeShift, and bits that say whether its literal
// needs a space before it (spaceBefore) and after it (spaceAfter).
const (
	holeSpaceBefore = 1 << iota
	holeSpaceAfter
	holeShift = iota
)

// appendHoles is appendQuery's common case: no MaxSize, and every
// placeholder among the holes that findPlaceholders kept. Everything that
// can fail has been checked. It appends the query's text between the
// holes, with the spaces they ask for, and the literals, and grows dst as
// appendParsed does, so that both give a dst of the same capacity: once
// up front to the estimate of the result's size, then only when escapes
// take it past that.
func appendHoles(dst []byte, query string, holes []int32, vals []driver.Value, typed []arg, estimate int, o *Options) ([]byte, error) {
	start := len(dst)
	if n := len(query) + estimate; cap(dst)-start < n {
		dst = grow(dst, start, n, o)
	}
	last, owed := 0, 0 // the text not yet copied; a space owed after the last literal
	var err error
	for n, h := range holes {
		p := int(h >> holeShift)
		before := int(h & holeSpaceBefore)
		if k := owed + p - last + before; cap(dst)-len(dst) < k {
			dst = grow(dst, start, k, o)
		}
		if owed != 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, query[last:p]...)
		if before != 0 {
			dst = append(dst, ' ')
		}
		if typed != nil {
			dst, err = appendLiteral(dst, start, &typed[n], n, o)
		} else {
			// The common types written here, without appendValue's
			// calls and its checks of a limit there is none of; each
			// grows dst as appendLiteral does for its kind, so that
			// Append, AppendArgs and Query.AppendArgs end with the
			// same capacity.
			switch v := vals[n].(type) {
			case int64:
				dst = digits.AppendInt(dst, v)
			case string:
				dst = append(dst, '\'')
				dst = appendEscaped(dst, v, o.NoBackslashEscapes)
				dst = append(dst, '\'')
			case float64:
				var buf [24]byte
				lit := formatFloat(&buf, v)
				if cap(dst)-len(dst) < len(lit) {
					dst = grow(dst, start, len(lit), o)
				}
				dst = append(dst, lit...)
			case bool:
				if cap(dst) == len(dst) {
					dst = grow(dst, start, 1, o)
				}
				dst = append(dst, '0')
				if v {
					dst[len(dst)-1] = '1'
				}
			case []byte:
				if v == nil {
					dst, err = appendNull(dst, start, o)
					break
				}
				dst = append(dst, "_binary'"...)
				dst = appendEscaped(dst, v, o.NoBackslashEscapes)
				dst = append(dst, '\'')
			case time.Time:
				dst, err = appendTimeArg(dst, start, v, n, o)
			default:
				dst, err = appendValue(dst, start, v, n, o)
			}
		}
		if err != nil {
			return dst[:start], err
		}
		owed = int(h&holeSpaceAfter) / holeSpaceAfter
		last = p + 1
	}
	if k := owed + len(query) - last; cap(dst)-len(dst) < k {
		dst = grow(dst, start, k, o)
	}
	if owed != 0 {
		dst = append(dst, ' ')
	}
	return append(dst, query[last:]...), nil
}

// placeholder returns the offset of placeholder k of the count in query,
// or len(query) for k == count: from holes, the offsets findPlaceholders
// kept, or past them read on from last, just past placeholder k-1.
func placeholder(query string, holes []int32, k, count, last int, o *Options) int {
	if k < len(holes) {
		return int(holes[k] >> holeShift)
	}
	if k < count {
		p, _ := nextPlaceholder(query, last, o) // no error: findPlaceholders read it
		return p
	}
	return len(query)
}

// querySpaces returns the number of spaces appendQuery writes between
// query and its count literals, on either side of each; holes holds the
// first offsets.
func querySpaces(query string, holes []int32, count int, o *Options) int {
	n, p := 0, -1
	for k := range count {
		p = placeholder(query, holes, k, count, p+1, o)
		if spaceBefore(query, p) {
			n++
		}
		if spaceAfter(query, p) {
			n++
		}
	}
	return n
}

// fuses marks the bytes that would fuse with a literal they touch, so that
// the server would not read the literal as the value it holds.
//
// The server's lexer reads the longest token it can. Every literal Append
// writes begins with ', _, N, - or a digit and ends with ', L or a digit,
// so a literal fuses with the text before it when that text ends in a
// token one of those bytes can extend, and with the text after it when
// that text begins with a byte that can extend the literal's last token:
//
//   - ' after ' is an escaped quote: the literals 'v' and 'x' written
//     together are one string, v'x;
//   - a letter, digit, _, $ or byte from 0x80 up before a literal makes a
//     prefix or a longer word of it: x'41' is hex, N'…' national,
//     _latin1'…' an introducer, a_binary'…' a column and an alias, 1e5 a
//     float, x5 and 15 one name or number;
//   - a + or - after an e or E is the sign of an exponent that waits for
//     its digits: 1e-5 is a float, where 1e - 5 is the column 1e minus 5,
//     and 1E+1.5 the float 1E+1 followed by .5;
//   - a . before or after a number makes a decimal (1.5) or, after a
//     name, the name of a column (t.5);
//   - a letter, digit, _, $, . or byte from 0x80 up after a number or
//     NULL makes a longer word of it: 5e1, 5x, NULLx, 5.5.
//
// No other token is extended by a literal: - then -5 is --5, no comment
// ("--" is one only before a blank or a control byte); no literal begins
// with * (which would make /* of a /), nor with the =, <, >, |, & or : that
// make two-byte operators; a ? after @ or \ is refused. A space between
// them keeps each a token of its own; a space between two tokens outside
// quotes and comments changes nothing else (it is put after a - only when
// an e is before that, so it makes no "-- " comment). Marking ' and the
// words on both sides, and a sign after any e, is more than each case
// needs, and simpler to check.
var fuses = func() (t [256]uint8) {
	for c := range 256 {
		if 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c >= 0x80 ||
			c == '_' || c == '$' || c == '.' || c == '\'' {
			t[c] = beforeLiteral | afterLiteral
		}
	}
	// A ? in code right before a placeholder is one too (@? and \? are
	// refused), and every literal ends with a byte that fuses.
	t['?'] = beforeLiteral
	t['+'], t['-'] = signBefore, signBefore
	return t
}()

// The bits of fuses: the byte fuses with a literal when it stands right
// before it, or right after it; or, a sign, when it stands right before
// it after an e or E.
const (
	beforeLiteral = 1 << iota
	afterLiteral
	signBefore
)

// spaceBefore and spaceAfter report whether the literal that replaces
// the placeholder at query[p] needs a space before it or after it: when
// the byte there fuses with it. Two placeholders in a row get one space
// between their literals, before the second.
func spaceBefore(query string, p int) bool {
	if p == 0 {
		return false
	}
	f := fuses[query[p-1]]
	return f&beforeLiteral != 0 || f&signBefore != 0 && p >= 2 && query[p-2]|0x20 == 'e'
}

func spaceAfter(query string, p int) bool {
	return p+1 < len(query) && fuses[query[p+1]]&afterLiteral != 0
}

// spaceAround returns, as 0 or 1, whether the query text query[last:p],
// which follows the placeholder at last-1 when n > 0 and precedes one at
// p when p < len(query), needs a space before it and after it.
func spaceAround(query string, last, p, n int) (before, after int) {
	if n > 0 && spaceAfter(query, last-1) {
		before = 1
	}
	if p < len(query) && spaceBefore(query, p) {
		after = 1
	}
	return before, after
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
		// that MySQL parses: where each ends depends on the server, but
		// for a plain one (see plainExecutable).
		if end, ok := plainExecutable(s, i); ok {
			return end, ""
		}
		return i, "an executable comment (/*!, /*M! or /*+)"
	}
	// An ordinary comment ends at the first */: comments do not nest.
	if k := strings.Index(s[i+2:], "*/"); k >= 0 {
		return i + 2 + k + 2, ""
	}
	return len(s), ""
}

// plainBody marks the bytes a plain executable comment may hold: letters,
// digits, _ $ . , = ( ) + - * and blanks. None of them opens a quoted part
// or a comment, so a server that runs the comment reads code up to its
// first */ and one that skips it skips to the same */; then both read on
// in code. A ? in the comment would be a placeholder to one and not to
// the other, and is not among them.
var plainBody = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("_$.,=()+-* \t\n\r\v\f", byte(c)) >= 0
	}
	return t
}()

// plainExecutable is called with s[i:] starting an executable comment,
// /*!, /*M! or /*+. When the comment is plain (closed, every byte up to its
// first */ in plainBody, and no "--", which would start a comment inside
// it when it runs) it returns the index past its */ and true: every server
// reads the query after it the same way, whether it runs the comment or
// skips it. A * in it cannot be followed by a /: that would be the */.
func plainExecutable(s string, i int) (end int, ok bool) {
	open := i + len("/*!") // or /*+
	if s[i+2] == 'M' {
		open = i + len("/*M!")
	}
	body := s[open:]
	k := strings.Index(body, "*/")
	if k < 0 {
		return 0, false
	}
	for j := range k {
		c := body[j]
		if !plainBody[c] || c == '-' && body[j+1] == '-' {
			return 0, false
		}
	}
	return open + k + len("*/"), true
}
