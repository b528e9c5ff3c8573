package sqlinterp_test

import (
	"bytes"
	"context"
	"database/sql/driver"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/poolkit/poolkit/sqlinterp"
)

// gluedBefore are query texts a placeholder is drawn right after, with no
// space: each ends in a token that the first byte of a literal (', _, N,
// - or a digit) might extend, or in one that it must not: an exponent
// waiting for its sign or digits (1e-, 1E+, 1.5e-), a number, a name, a
// prefix (0x, x, b, N, _binary), a dot, a string, a hex or bit string,
// operators that a - or a digit might lengthen (-, --, /, *, <, !), and
// blanks.
var gluedBefore = []string{
	"1e-", "1E+", "1e+", "1E-", "1.5e-", ".5E+", "1.e-", "0x1e-", "1e--", "1e+-", "e-", "E+", "a-", "1-", "1--", "-", "--", "+",
	"1e", "1E", "1", "1.", ".", "t.", "0x", "0b", "x", "X", "b", "N", "n", "a", "e", "_binary", "_latin1", "$", "é",
	"'x'", "X'41'", "b'1'", "N'x'", "1/", "1*", "1<", "1=", "1<=", "1>", "1<>", "1!=", "1|", "1&", "1^", "1%", "!", "~",
	"(", "1,", " ", "\n", "\t", "",
}

// gluedAfter are query texts a placeholder is drawn right before: each
// begins with a byte that might extend the literal's last token (e, E,
// ., a letter, a digit, a quote) or one that must not (operators, a
// comment, blanks).
var gluedAfter = []string{
	"e1", "e", "E+1", "e-1", ".5", ".", "x", "L", "'x'", "5", "1e", "-1", "--1", "-- c\n", "#c\n", "/*c*/", "/2", "*2", "+1",
	"_x", "$", "é", "<2", "=5", " AS y", "AS y", ")", " ", "\n", "",
}

// gluedValues are what the placeholders get: numbers of both signs,
// floats with and without an exponent, NULL, booleans and strings.
var gluedValues = []driver.Value{int64(5), int64(-5), int64(0), int64(12), int64(math.MinInt64), uint64(7), uint64(math.MaxUint64),
	1.5, -0.25, 2.5e-8, 1e21, -1e-5, nil, true, false, "7", "x", "1e5", []byte("y")}

// gluedFrom names a column for each word gluedBefore ends in, so that
// the query runs where the server reads the word apart from the value.
const gluedFrom = "\nFROM (SELECT 3 AS `1e`, 4 AS a, 6 AS x, 7 AS b, 8 AS n, 9 AS e, 10 AS `é`, 11 AS `$`, 12 AS `_binary`, 13 AS `_latin1`) t"

// gluedQuery returns a SELECT of one or two items, each a placeholder
// (or two in a row) glued to texts drawn from gluedBefore and gluedAfter,
// from gluedFrom.
func (g *queryGen) gluedQuery() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i := range 1 + g.r.IntN(2) {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(gluedBefore[g.r.IntN(len(gluedBefore))])
		b.WriteString("?")
		if g.r.IntN(6) == 0 {
			b.WriteString("?")
		}
		b.WriteString(gluedAfter[g.r.IntN(len(gluedAfter))])
	}
	b.WriteString(gluedFrom)
	return b.String()
}

// gluedArgs draws a value for each of the k placeholders of query; a
// placeholder next to a quote gets no string, which SQL would join to the
// quoted part next to it (adjacent strings concatenate, where the
// prepared statement's parameter reads as a value and an alias).
func (g *queryGen) gluedArgs(query string, k int, o sqlinterp.Options) []driver.Value {
	args := make([]driver.Value, k)
	holes := placeholderOffsets(query, k, o)
	for j := range args {
		v := gluedValues[g.r.IntN(len(gluedValues))]
		p := holes[j]
		switch v.(type) {
		case string, []byte:
			if p > 0 && query[p-1] == '\'' || p+1 < len(query) && query[p+1] == '\'' {
				v = int64(j + 1)
			}
		}
		args[j] = v
	}
	return args
}

// placeholderOffsets returns the offsets of the k placeholders of query,
// found by interpolating markers that show where each went.
func placeholderOffsets(query string, k int, o sqlinterp.Options) []int {
	offsets := make([]int, 0, k)
	for i := 0; i < len(query) && len(offsets) < k; i++ {
		if query[i] != '?' {
			continue
		}
		// The ? at i is a placeholder when the query with one more ?
		// counted the same way has it.
		n, err := sqlinterp.CountPlaceholders(query[:i+1], o)
		if err == nil && n == len(offsets)+1 {
			offsets = append(offsets, i)
		}
	}
	return offsets
}

// preparedRun runs query as a server-side prepared statement with args
// (the connection does not interpolate), so the server itself reads each
// ? as a parameter, and returns the one row's columns or the server's
// error number. An error that is not the server's, such as the driver
// refusing a number of arguments that is not the server's count of
// placeholders, is returned as err.
func preparedRun(s *session, query string, args []driver.Value) (vals [][]byte, errno int, err error) {
	anys := make([]any, len(args))
	for i, a := range args {
		anys[i] = a
	}
	rows, err := s.conn.QueryContext(context.Background(), query, anys...)
	if err == nil {
		defer rows.Close()
		var cols []string
		if cols, err = rows.Columns(); err == nil {
			if !rows.Next() {
				err = rows.Err()
				if err == nil {
					err = errors.New("no row")
				}
			} else {
				vals = make([][]byte, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				err = rows.Scan(ptrs...)
			}
		}
	}
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return nil, int(me.Number), nil
		}
		return nil, 0, err
	}
	return vals, 0, nil
}

// sameValue reports whether a column of the interpolated query, got,
// holds what the prepared statement's, want, does: the same bytes, or
// numbers within a ten-thousandth of each other (a float parameter is a
// DOUBLE, where its literal is a DECIMAL: 4/1.5 is 2.6666666666666665 to
// one and 2.6667 to the other).
func sameValue(got, want []byte) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	if bytes.Equal(got, want) {
		return true
	}
	g, err1 := strconv.ParseFloat(string(got), 64)
	w, err2 := strconv.ParseFloat(string(want), 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Abs(g-w) <= 1e-4*math.Max(1, math.Max(math.Abs(g), math.Abs(w)))
}

// TestMariaDBGlued checks literals glued to what is before and after
// their placeholder against the server's own reading of the placeholder:
// for random queries of placeholders glued to exponents waiting for their
// sign, numbers, names, prefixes, dots, strings and operators (a new seed
// each run, logged), the interpolated query must give what the server
// gives when it runs the same query as a prepared statement with the same
// values, where every ? is a parameter token of its own. Where the
// prepared statement runs, the interpolated query must run too and return
// the same values; a prepared statement that the server rejects shows no
// reading to compare with, and is counted. The server's count of
// placeholders must be CountPlaceholders' (database/sql checks it).
func TestMariaDBGlued(t *testing.T) {
	db := openServer(t)
	g := &queryGen{version: serverVersion(t, db)}
	seed := oracleSeed(t)
	g.r = rand.New(rand.NewPCG(seed, 0x61ed))
	var sessions []*session
	for _, mode := range []sqlinterp.Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}, {ANSIQuotes: true, NoBackslashEscapes: true}} {
		sessions = append(sessions, newSession(t, db, "utf8mb4", mode))
	}
	sessions = append(sessions, newSession(t, db, "latin1", sqlinterp.Options{}))
	n := 3000
	if testing.Short() {
		n = 300
	}
	var compared, values, unprepared, bothRan int
	for i := range n {
		s := sessions[i%len(sessions)]
		query := g.gluedQuery()
		k, err := sqlinterp.CountPlaceholders(query, s.opts)
		if err != nil {
			t.Fatalf("%s: CountPlaceholders(%q): %v", s.name, query, err)
		}
		args := g.gluedArgs(query, k, s.opts)
		text, err := sqlinterp.Append(nil, query, args, s.opts)
		if err != nil {
			t.Fatalf("%s: Append(%q, %v): %v", s.name, query, args, err)
		}
		typed, _ := sqlinterp.TypedArgs(args)
		if tq, err := sqlinterp.AppendArgs(nil, query, typed, s.opts); err != nil || !bytes.Equal(tq, text) {
			t.Fatalf("%s: AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(tq), err, shorten(text))
		}
		if q, err := sqlinterp.Parse(query); err == nil {
			if pq, err := q.AppendArgs(nil, typed, s.opts); err != nil || !bytes.Equal(pq, text) {
				t.Fatalf("%s: Query.AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(pq), err, shorten(text))
			}
		}
		want, wantErr, err := preparedRun(s, query, args)
		if err != nil {
			t.Fatalf("%s: %q as a prepared statement with %d arguments (CountPlaceholders' count): %v", s.name, query, k, err)
		}
		got, gotErr := serverRun(s, text)
		if wantErr != 0 {
			unprepared++
			if gotErr == 0 {
				bothRan++ // counted: the prepared statement shows nothing to compare with
			}
			continue
		}
		compared++
		if gotErr != 0 {
			t.Fatalf("%s: %q runs as a prepared statement with %v, but interpolated as %s the server gives error %d",
				s.name, query, args, shorten(text), gotErr)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %q with %v: %d columns as a prepared statement, %d interpolated as %s", s.name, query, args, len(want), len(got), shorten(text))
		}
		for c := range got {
			if !sameValue(got[c], want[c]) {
				t.Fatalf("%s: %q with %v: column %d is %q as a prepared statement, %q interpolated as %s (%s=%d repeats this run)",
					s.name, query, args, c, want[c], got[c], shorten(text), seedEnv, seed)
			}
		}
		values += k
	}
	t.Logf("%d queries: %d compared with the prepared statement (%d values), %d rejected by the server as prepared statements (of which %d ran interpolated)",
		n, compared, values, unprepared, bothRan)
	if compared < n/10 {
		t.Errorf("only %d of %d queries ran as prepared statements: the generator tests too little", compared, n)
	}
}
