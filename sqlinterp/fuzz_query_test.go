package sqlinterp_test

import (
	"database/sql/driver"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/sqlinterp"
)

// FuzzQuery checks the query reader against oracles that do not share its
// code:
//
//   - The output is the query with some of its ? replaced, in order, by the
//     arguments' literals, and nothing else changed; each literal reads back
//     as its value through readLiteral (written from the MySQL manual).
//   - A query with no quote, comment opener, NUL, @? or \? has exactly as
//     many placeholders as it has ? bytes.
//   - With $POOLKIT_MYSQL_DSN set, a query Append accepts runs on MariaDB
//     with benign and with hostile values, and the server must read it the
//     same way (checkReading): the differential that finds a value read as
//     SQL, wherever the reader went wrong.
//
// Refusals must be consistent: CountPlaceholders and Append refuse the same
// queries with the same *QueryError, and a wrong argument count is a
// *CountError naming the reader's count. Parse refuses the queries that
// some mode refuses, and a parsed query writes what AppendArgs writes
// (checkParsed), which the server then runs.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{
		"SELECT ?", "SELECT '?', ?", `SELECT "a\"?", ?`, "SELECT ? -- ?\n?", "SELECT ?#?\n?",
		"SELECT /* ? */ ?", "SELECT /*! ? */", "SELECT /*!50000 '*/' */ ?", "SELECT /*M! ? */", "SELECT `?`, ?", "SELECT ?'?'", "--?", "/*", "'\\",
		"SELECT 2 /*! + 1 */* ' */ , ? AS v -- '\n", "/*!50700 # */\n */ ?", "SELECT ? /*!40000 # */\n */* ' */",
		"SELECT /*+ MAX_EXECUTION_TIME(1000) */ ?, ?", "SELECT 1 /*!50000 , 2 */, ? /*M!100100 , 3 */", "SELECT /*+ a -- */ ?",
		"SELECT ??", "SELECT ?'x'", "SELECT 'x'??'y'", "SELECT ?e1, 1.?", "SELECT ?/*!*/?",
	} {
		f.Add(q, `'?\"`+"`", uint8(0))
	}
	modes := []sqlinterp.Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}, {NoBackslashEscapes: true, ANSIQuotes: true}}
	var sessions []*session
	if os.Getenv(dsnEnv) != "" {
		db := openServer(f)
		for _, m := range modes {
			sessions = append(sessions, newSession(f, db, "utf8mb4", m))
		}
	}
	f.Fuzz(func(t *testing.T, query, val string, mode uint8) {
		opts := modes[mode%4]
		val += "?'\\\"`*/\n" // every value holds the characters that end quoted parts and comments
		n, err := sqlinterp.CountPlaceholders(query, opts)
		if err != nil {
			one, _ := sqlinterp.TypedArgs(make([]driver.Value, 1))
			sqlinterp.CheckParsed(t, query, one, opts)
			_, err2 := sqlinterp.Append(nil, query, make([]driver.Value, 1), opts)
			var qe *sqlinterp.QueryError
			if !errors.As(err, &qe) || err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("CountPlaceholders(%q): %v; Append: %v", query, err, err2)
			}
			return
		}
		if !strings.ContainsAny(query, "'\"`#-/\x00") && !strings.Contains(query, "@?") && !strings.Contains(query, `\?`) {
			if want := strings.Count(query, "?"); n != want {
				t.Fatalf("CountPlaceholders(%q) = %d, want %d: the query has nothing but code", query, n, want)
			}
		}
		args := make([]driver.Value, n)
		for i := range args {
			if i%2 == 0 {
				args[i] = val
			} else {
				args[i] = []byte(val)
			}
		}
		out, err := sqlinterp.Append(nil, query, args, opts)
		if err != nil {
			t.Fatalf("Append(%q) with %d args: %v", query, n, err)
		}
		typed, _ := sqlinterp.TypedArgs(args)
		sqlinterp.CheckParsed(t, query, typed, opts) // the parsed path writes what AppendArgs writes
		// Walk the query and the output together. A literal may have a
		// space on either side; it must have one where the server would
		// otherwise not read it as a token of its own: a quote next to
		// its quote is an escaped quote (readLiteral reads on through it,
		// and the value comes back wrong), and a word before it makes a
		// prefix (x'…', n'…', _latin1'…') or a longer name of it.
		qi, oi, replaced := 0, 0, 0
		for qi < len(query) {
			if query[qi] == '?' && oi < len(out) && out[oi] != '?' {
				if replaced == n {
					t.Fatalf("Append(%q) = %q: more than %d values", query, out, n)
				}
				if out[oi] == ' ' {
					oi++
				} else if oi > 0 && wordOrQuote(out[oi-1]) {
					t.Fatalf("Append(%q) = %q: value %d touches the %q before it", query, out, replaced, out[oi-1])
				}
				got, rest, binary, err := readLiteral(out[oi:], opts.NoBackslashEscapes)
				if err != nil || string(got) != val || binary != (replaced%2 == 1) {
					t.Fatalf("Append(%q) = %q: value %d reads back as %q, _binary=%v (%v), want %q", query, out, replaced, got, binary, err, val)
				}
				oi = len(out) - len(rest)
				if len(rest) > 0 && rest[0] == ' ' && (qi+1 == len(query) || query[qi+1] != ' ') {
					oi++
				}
				qi++
				replaced++
				continue
			}
			if oi >= len(out) || out[oi] != query[qi] {
				t.Fatalf("Append(%q) = %q: query text changed at byte %d", query, out, qi)
			}
			qi++
			oi++
		}
		if oi != len(out) || replaced != n {
			t.Fatalf("Append(%q) = %q: %d values placed, %d trailing bytes; want %d values", query, out, replaced, len(out)-oi, n)
		}
		_, err = sqlinterp.Append(nil, query, append(args, nil), opts)
		var ce *sqlinterp.CountError
		if !errors.As(err, &ce) || ce.Placeholders != n || ce.Args != n+1 {
			t.Fatalf("Append(%q) with %d args: error %v, want a CountError{%d, %d}", query, n+1, err, n, n+1)
		}
		// The server, for queries that only read: a fuzzed query is run
		// only when it is one SELECT that cannot write or wait. A ? right
		// after a letter, digit, _ or $ is skipped too: the value becomes
		// x'…', n'…' or _latin1'…', whose value depends on its bytes.
		if sessions == nil || n == 0 || !safeSelect(query) || prefixed(query) {
			return
		}
		// Once with the fuzzed value, once with payloads that run if any
		// part of the query around them is misread.
		kinds := make([]int, n)
		fuzzed := make([][]byte, n)
		fixed := make([][]byte, n)
		for j := range n {
			kinds[j] = j % 3
			fuzzed[j] = []byte(strings.ReplaceAll(val, "~", ""))
			fixed[j] = []byte(payloads[(j+int(mode))%len(payloads)])
		}
		checkReading(t, sessions[mode%4], query, kinds, fuzzed)
		checkReading(t, sessions[mode%4], query, kinds, fixed)
	})
}

// safeSelect reports whether query is one SELECT with nothing in it that
// writes, locks or sleeps, so that a fuzzer may run it on the server.
func safeSelect(query string) bool {
	up := strings.ToUpper(query)
	if !strings.HasPrefix(up, "SELECT ") || strings.Contains(up, ";") {
		return false
	}
	for _, w := range []string{"INTO", "SLEEP", "BENCHMARK", "LOCK", "FOR UPDATE", "GET_LOCK", "LOAD_FILE", "\x00"} {
		if strings.Contains(up, w) {
			return false
		}
	}
	return true
}

// prefixed reports whether a ? in query follows an identifier byte.
func prefixed(query string) bool {
	for i := 1; i < len(query); i++ {
		if c := query[i-1]; query[i] == '?' && (c == '_' || c == '$' || c >= 0x80 ||
			'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9') {
			return true
		}
	}
	return false
}

// readLiteral is the manual's reader of fuzz_test.go, exported to this
// package by export_test.go.
var readLiteral = sqlinterp.ReadLiteral

// wordOrQuote reports whether c, right before a string literal, would
// change how the server reads it: a quote makes the two quotes one escaped
// quote, and a letter, digit, _, $, . or byte from 0x80 up makes a prefix
// or a longer word of it (the MySQL manual's identifier characters).
func wordOrQuote(c byte) bool {
	return c == '\'' || c == '_' || c == '$' || c == '.' || c >= 0x80 ||
		'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}
