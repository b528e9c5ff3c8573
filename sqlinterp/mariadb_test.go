package sqlinterp_test

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/poolkit/poolkit/sqlinterp"
)

// dsnEnv names the environment variable holding the go-sql-driver/mysql DSN
// of the server the integration test runs against; .ci/mariadb.sh starts a
// throwaway MariaDB and sets it.
const dsnEnv = "POOLKIT_MYSQL_DSN"

// openServer connects to the server named by $POOLKIT_MYSQL_DSN, with the
// driver's own interpolation off so that every literal the server sees was
// written by sqlinterp, or skips the test when there is none.
func openServer(t testing.TB) *sql.DB {
	t.Helper()
	dsn := os.Getenv(dsnEnv)
	if dsn == "" {
		t.Skipf("%s is not set, so there is no MySQL/MariaDB server to test against; run `source .ci/mariadb.sh` to start one", dsnEnv)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("%s=%q is not a valid DSN: %v", dsnEnv, dsn, err)
	}
	cfg.InterpolateParams = false
	cfg.Timeout = 5 * time.Second
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatalf("%s: %v", dsnEnv, err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		t.Skipf("%s=%q: server unreachable (%v); run `source .ci/mariadb.sh` to start one", dsnEnv, dsn, err)
	}
	return db
}

// session is one connection set up with a character set and sql_mode,
// and the Options that describe it.
type session struct {
	name string
	conn *sql.Conn
	opts sqlinterp.Options
}

func newSession(t testing.TB, db *sql.DB, charset string, opts sqlinterp.Options) *session {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	mode := "STRICT_TRANS_TABLES"
	if opts.NoBackslashEscapes {
		mode += ",NO_BACKSLASH_ESCAPES"
	}
	if opts.ANSIQuotes {
		mode += ",ANSI_QUOTES"
	}
	// A statement time limit keeps a fuzzed query from holding the server.
	for _, stmt := range []string{"SET NAMES " + charset, "SET SESSION sql_mode = '" + mode + "'", "SET SESSION time_zone = '+00:00'",
		"SET SESSION max_statement_time = 2"} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	var got string
	if err := conn.QueryRowContext(ctx, "SELECT @@SESSION.sql_mode").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "NO_BACKSLASH_ESCAPES") != opts.NoBackslashEscapes || strings.Contains(got, "ANSI_QUOTES") != opts.ANSIQuotes {
		t.Fatalf("sql_mode is %q after setting %q", got, mode)
	}
	return &session{name: charset + "/" + mode, conn: conn, opts: opts}
}

// row interpolates args into query, runs it and returns the one row's
// columns as the server sent them (nil for NULL).
func (s *session) row(t *testing.T, query string, args ...driver.Value) (cols []string, vals [][]byte) {
	t.Helper()
	q := interpolateAll(t, s, query, args...)
	rows, err := s.conn.QueryContext(context.Background(), string(q))
	if err != nil {
		t.Fatalf("%s: query %s: %v", s.name, shorten(q), err)
	}
	defer rows.Close()
	cols, err = rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatalf("%s: query %s returned no row: %v", s.name, shorten(q), rows.Err())
	}
	vals = make([][]byte, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	if rows.Next() {
		t.Fatalf("%s: query %s returned more than one row", s.name, shorten(q))
	}
	return cols, vals
}

func shorten(q []byte) string {
	if len(q) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", q[:200], len(q))
	}
	return fmt.Sprintf("%q", q)
}

// hostileValues is the corpus of byte strings: every byte alone and all of
// them in a row, quotes and backslashes in every arrangement that has
// broken an escaper, NUL and Ctrl-Z, invalid UTF-8, the GBK byte pair, and
// long values.
func hostileValues() [][]byte {
	var vs [][]byte
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
		vs = append(vs, []byte{byte(i)}, []byte{'\\', byte(i)}, []byte{byte(i), '\''})
	}
	rev := bytes.Clone(all)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	vs = append(vs, all, rev, []byte{})
	for _, s := range []string{
		`'`, `''`, `'''`, `"`, `""`, `\`, `\\`, `\'`, `\\'`, `'\`, `\"`, "`", "``",
		`' OR 1=1 -- `, `\''; SELECT 1; -- `, `'); DROP TABLE t; #`, `*/ ? /*`,
		"\x00", "a\x00b", "\x1a", "\\Z", "\r\n\t\b", `\%\_%_`, "_binary'x'", "?",
		"\xc3\x28", "\xa0\xa1", "\xe2\x28\xa1", "\xf0\x90\x28\xbc", "\xff\xfe\xfd", "\xed\xa0\x80", // invalid UTF-8
		"\xbf\x5c\x27", "\xbf\x27", // GBK: 0xbf5c is one character there
		"日本語", "é", "😀", "\u2028\u2029", "\ufeff",
	} {
		vs = append(vs, []byte(s))
	}
	r := rand.New(rand.NewPCG(1, 2))
	long := make([]byte, 1<<20)
	for i := range long {
		long[i] = byte(r.Uint32())
	}
	vs = append(vs, long, bytes.Repeat([]byte(`'\"`), 1<<16))
	return vs
}

// TestMariaDBRoundTrip runs SELECT <literal> on a real server for every
// hostile value, as a string, a []byte and a json.RawMessage, in three
// character sets and both escape modes, and checks the server returns the
// original bytes.
func TestMariaDBRoundTrip(t *testing.T) {
	db := openServer(t)
	values := hostileValues()
	for _, noBS := range []bool{false, true} {
		for _, charset := range []string{"utf8mb4", "latin1", "binary"} {
			s := newSession(t, db, charset, sqlinterp.Options{NoBackslashEscapes: noBS})
			t.Run(s.name, func(t *testing.T) {
				checked := 0
				for _, v := range values {
					// Every value goes in every character set, invalid
					// UTF-8 in a utf8mb4 session too: MariaDB returns a
					// bare literal's bytes unchecked (MySQL 8 may warn
					// and replace them, which this test would report).
					args := []driver.Value{v, string(v), json.RawMessage(v)}
					for _, a := range args {
						_, got := s.row(t, "SELECT ?", a)
						if !bytes.Equal(got[0], v) {
							t.Errorf("%T %s: server returned %s", a, shorten(v), shorten(got[0]))
						}
						checked++
					}
				}
				t.Logf("%d literals read back exactly", checked)
			})
		}
	}
}

// TestMariaDBWrongModeFails checks that the round trip above can fail:
// literals escaped for the other mode do not survive.
func TestMariaDBWrongModeFails(t *testing.T) {
	db := openServer(t)
	for _, noBS := range []bool{false, true} {
		s := newSession(t, db, "utf8mb4", sqlinterp.Options{NoBackslashEscapes: noBS})
		s.opts.NoBackslashEscapes = !noBS // lie about the session
		v := `a\b` + "\n"
		q, err := sqlinterp.Append(nil, "SELECT ?", []driver.Value{v}, s.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if err := s.conn.QueryRowContext(context.Background(), string(q)).Scan(&got); err == nil && string(got) == v {
			t.Errorf("%s: %q escaped for the wrong mode still read back exactly; the round-trip test proves nothing", s.name, q)
		}
	}
}

func TestMariaDBNumbersAndTimes(t *testing.T) {
	db := openServer(t)
	ints := []driver.Value{int64(0), int64(1), int64(-1), int64(math.MaxInt64), int64(math.MinInt64),
		uint64(math.MaxInt64) + 1, uint64(math.MaxUint64), true, false}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, math.Pi, 0.1, 1e21, 1e-7, 123456.789, 1 << 53,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1e300, 4.9e-300,
		// short decimals formatFloat writes without strconv, at the edges too
		6.531, -0.0625, 1e-4, 0.9999, 999999.9999, 100000, 42.1}
	loc := time.FixedZone("UTC+5:30", 5*3600+1800)
	times := []time.Time{
		time.Unix(1423411542, 807015000), // sqlbaseline.InterpolateArgs' time
		time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 23, 59, 59, 999999999, time.UTC), // nanoseconds are dropped
		time.Date(2038, 1, 19, 3, 14, 8, 1000, time.UTC),
		time.Date(9999, 12, 31, 18, 29, 59, 999999000, time.UTC), // 23:59:59.999999 at UTC+5:30
	}
	for _, noBS := range []bool{false, true} {
		for _, l := range []*time.Location{nil, loc} {
			s := newSession(t, db, "utf8mb4", sqlinterp.Options{NoBackslashEscapes: noBS, Location: l})
			for _, v := range ints {
				_, got := s.row(t, "SELECT ?", v)
				want := fmt.Sprint(v)
				if b, ok := v.(bool); ok {
					want = map[bool]string{true: "1", false: "0"}[b]
				}
				if string(got[0]) != want {
					t.Errorf("%s: %T %v: server returned %q", s.name, v, v, got[0])
				}
			}
			for _, v := range floats {
				_, got := s.row(t, "SELECT ?", v)
				f, err := strconv.ParseFloat(string(got[0]), 64)
				if err != nil || f != v {
					t.Errorf("%s: float64 %v: server returned %q", s.name, v, got[0])
				}
			}
			if _, got := s.row(t, "SELECT ?", nil); got[0] != nil {
				t.Errorf("%s: nil: server returned %q, want NULL", s.name, got[0])
			}
			for _, v := range times {
				_, got := s.row(t, "SELECT CAST(? AS DATETIME(6))", v)
				wl := l
				if wl == nil {
					wl = time.UTC
				}
				const layout = "2006-01-02 15:04:05.000000" // Format truncates, as Append does
				if want := v.In(wl).Format(layout); string(got[0]) != want {
					t.Errorf("%s: time %v: server returned %q, want %q", s.name, v, got[0], want)
				}
				back, err := time.ParseInLocation(layout, string(got[0]), wl)
				if err != nil || !back.Equal(v.Truncate(time.Microsecond)) {
					t.Errorf("%s: time %v read back as %v (%v)", s.name, v, back, err)
				}
			}
			if _, got := s.row(t, "SELECT CAST(? AS DATETIME(6))", time.Time{}); string(got[0]) != "0000-00-00 00:00:00.000000" {
				t.Errorf("%s: zero time: server returned %q", s.name, got[0])
			}
		}
	}
}

// TestMariaDBPlaceholders checks that the server reads the query's quoted
// parts and comments where Append does: each case's hostile arguments come
// back in the columns, and the ? in quotes and comments stay there.
func TestMariaDBPlaceholders(t *testing.T) {
	db := openServer(t)
	a, b := `x'?\"`+"`", `--' #`
	tests := []struct {
		opts  sqlinterp.Options
		query string
		cols  []string // column names, "" for any
		want  []string
	}{
		{query: "SELECT ?, '?', \"?\", ? -- ?\n", want: []string{a, "?", "?", b}},
		{query: "SELECT ? AS `a?`, ? # ?\n", cols: []string{"a?", ""}, want: []string{a, b}},
		{query: "SELECT ? /* ?, ' */, ?", want: []string{a, b}},
		// Executable comments after the placeholders: the server runs or
		// skips them (a last "x?" column is optional).
		{query: "SELECT ?, ? /*! , 'x' */", want: []string{a, b, "x"}},
		{query: "SELECT ?, ? /*!100000 , 'x' */", want: []string{a, b, "x?"}},
		{query: "SELECT ?, ? /*!999999 , 'x' */", want: []string{a, b, "x?"}},
		{query: "SELECT ?, ? /*M!100100 , 'x' */", want: []string{a, b, "x?"}},
		{query: "SELECT ?, ? /*!50000 , 'x' /* y */ */", want: []string{a, b, "x?"}},
		{query: "SELECT 'it''s ?', ?, ?", want: []string{"it's ?", a, b}},
		{query: `SELECT 'it\'s ?', ?, ?`, want: []string{"it's ?", a, b}},
		{query: `SELECT 'a\\', ?, ?`, want: []string{`a\`, a, b}},
		{query: `SELECT 'a\', ?, ?`, opts: sqlinterp.Options{NoBackslashEscapes: true}, want: []string{`a\`, a, b}},
		{query: `SELECT "a\"?", ?, ?`, want: []string{`a"?`, a, b}},
		{query: `SELECT ? AS "a\", ?`, opts: sqlinterp.Options{ANSIQuotes: true}, cols: []string{`a\`, ""}, want: []string{a, b}},
		{query: `SELECT ? AS "a\", ?`, opts: sqlinterp.Options{ANSIQuotes: true, NoBackslashEscapes: true}, cols: []string{`a\`, ""}, want: []string{a, b}},
		// A negative number after a minus makes "--1", which is no comment:
		// 1 - (-1) and 2 - (-(1)).
		{query: "SELECT 1-?, 2--?", want: []string{"2", "3"}},
	}
	for _, tc := range tests {
		s := newSession(t, db, "utf8mb4", tc.opts)
		args := []driver.Value{a, b}
		if strings.Contains(tc.query, "1-?") {
			args = []driver.Value{int64(-1), int64(1)}
		}
		cols, got := s.row(t, tc.query, args...)
		if len(tc.want) == 3 && tc.want[2] == "x?" {
			if len(got) == 2 { // the server skipped the comment
				got = append(got, []byte("x?"))
			} else if len(got) == 3 && string(got[2]) == "x" {
				got[2] = []byte("x?")
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q: %d columns, want %d", s.name, tc.query, len(got), len(tc.want))
			continue
		}
		for i := range got {
			if string(got[i]) != tc.want[i] {
				t.Errorf("%s: %q: column %d = %q, want %q", s.name, tc.query, i, got[i], tc.want[i])
			}
			if tc.cols != nil && tc.cols[i] != "" && cols[i] != tc.cols[i] {
				t.Errorf("%s: %q: column %d is named %q, want %q", s.name, tc.query, i, cols[i], tc.cols[i])
			}
		}
	}
}

// interpolateAll interpolates args into query with Append, AppendArgs
// (when the values have Add methods) and Parse with Query.AppendArgs, and
// fails the test unless all accept it and write the same text.
func interpolateAll(t *testing.T, s *session, query string, args ...driver.Value) []byte {
	t.Helper()
	q, err := sqlinterp.Append(nil, query, args, s.opts)
	if err != nil {
		t.Fatalf("%s: Append(%q): %v", s.name, query, err)
	}
	pq, err := sqlinterp.Parse(query)
	if err != nil {
		t.Fatalf("%s: Parse(%q): %v", s.name, query, err)
	}
	if typed, ok := sqlinterp.TypedArgs(args); ok {
		tq, err := sqlinterp.AppendArgs(nil, query, typed, s.opts)
		if err != nil || !bytes.Equal(tq, q) {
			t.Fatalf("%s: AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(tq), err, shorten(q))
		}
		if tq, err = pq.AppendArgs(nil, typed, s.opts); err != nil || !bytes.Equal(tq, q) {
			t.Fatalf("%s: Query.AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(tq), err, shorten(q))
		}
	}
	return q
}

// errParse is ER_PARSE_ERROR, a syntax error.
const errParse = 1064

// TestMariaDBTouching checks placeholders that touch a quote, a word, a
// dot or another placeholder: the server must read each value as given,
// as a literal of its own. Written together, 'v' and 'x' are the one
// string v'x, 1 and 5 the number 15, 5 and e1 the number 50, x and '41'
// the hex literal 'A', t. and 5 the column 5 of t; with the space the
// package puts between them, strings concatenate, a word after a value
// is its alias, and a number after a number is a syntax error.
func TestMariaDBTouching(t *testing.T) {
	db := openServer(t)
	a, b := `x'?\"`+"`", `--' #`
	at := time.Date(2024, 2, 29, 1, 2, 3, 0, time.UTC)
	tests := []struct {
		query string
		args  []driver.Value
		cols  []string // column names, "" for any
		want  []any    // each column: a string, or nil for NULL
		errno int      // or the server's error
	}{
		{query: "SELECT ??", args: []driver.Value{a, b}, want: []any{a + b}},
		{query: "SELECT ?'x'", args: []driver.Value{a}, want: []any{a + "x"}},
		{query: "SELECT 'x'?", args: []driver.Value{a}, want: []any{"x" + a}},
		{query: "SELECT 'x'??'y', ?", args: []driver.Value{a, b, b}, want: []any{"x" + a + b + "y", b}},
		{query: "SELECT _binary'x'?", args: []driver.Value{a}, want: []any{"x" + a}},
		{query: "SELECT ??", args: []driver.Value{[]byte(a), b}, want: []any{a + b}},
		{query: "SELECT ??", args: []driver.Value{json.RawMessage(a), at}, want: []any{a + "2024-02-29 01:02:03"}},
		{query: "SELECT ?'x', ?", args: []driver.Value{nil, a}, cols: []string{"x", ""}, want: []any{nil, a}},
		// A word after a value is its alias; 5e1 would be 50.
		{query: "SELECT ?e1, ?x, ?y, ?z, ?w", args: []driver.Value{int64(5), 1.5, nil, a, []byte(b)},
			cols: []string{"e1", "x", "y", "z", "w"}, want: []any{"5", "1.5", nil, a, b}},
		{query: "SELECT ?e1", args: []driver.Value{uint64(math.MaxUint64)}, cols: []string{"e1"}, want: []any{"18446744073709551615"}},
		// A word before a value: 1e-5 would be 0.00001, x'41' would be A,
		// a_binary'v' the column a_binary.
		{query: "SELECT 1e? FROM (SELECT 3 AS `1e`) t", args: []driver.Value{int64(-5)}, want: []any{"-2"}},
		// A sign after an exponent's e: 1e-5 would be 0.00001, 1E+1.5 the
		// float 1E+1 and then .5, a syntax error.
		{query: "SELECT 1e-?, 1E+?, 1e+? FROM (SELECT 3 AS `1e`) t", args: []driver.Value{int64(5), 1.5, int64(-1)}, want: []any{"-2", "4.5", "2"}},
		{query: "SELECT x? FROM (SELECT 7 AS x) t", args: []driver.Value{"41"}, cols: []string{"41"}, want: []any{"7"}},
		{query: "SELECT a? FROM (SELECT 3 AS a, 4 AS a_binary) t", args: []driver.Value{[]byte("v")}, errno: errParse},
		// Numbers that would join: 15, 12, 1.5, 5.5, the column 5 of t.
		{query: "SELECT 1?", args: []driver.Value{int64(5)}, errno: errParse},
		{query: "SELECT ??", args: []driver.Value{int64(1), int64(2)}, errno: errParse},
		{query: "SELECT 1.?", args: []driver.Value{int64(5)}, errno: errParse},
		{query: "SELECT ?.5", args: []driver.Value{int64(5)}, errno: errParse},
		{query: "SELECT t.? FROM (SELECT 3 AS `5`) t", args: []driver.Value{int64(5)}, errno: errParse},
		// Untouched: 1 - (-1), 2 - (-(1)), no comment.
		{query: "SELECT 1-?, 2--?", args: []driver.Value{int64(-1), int64(1)}, want: []any{"2", "3"}},
	}
	for _, mode := range []sqlinterp.Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}, {ANSIQuotes: true, NoBackslashEscapes: true}} {
		s := newSession(t, db, "utf8mb4", mode)
		for _, tc := range tests {
			text := interpolateAll(t, s, tc.query, tc.args...)
			rows, err := s.conn.QueryContext(context.Background(), string(text))
			if tc.errno != 0 {
				var me *mysql.MySQLError
				if err == nil {
					rows.Close()
				}
				if !errors.As(err, &me) || int(me.Number) != tc.errno {
					t.Errorf("%s: %s: error %v, want the server's error %d (the value read apart from its neighbour)", s.name, shorten(text), err, tc.errno)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %s: %v", s.name, shorten(text), err)
				continue
			}
			cols, _ := rows.Columns()
			vals := make([][]byte, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if !rows.Next() || rows.Scan(ptrs...) != nil {
				t.Errorf("%s: %s: no row (%v)", s.name, shorten(text), rows.Err())
			}
			rows.Close()
			if len(vals) != len(tc.want) {
				t.Errorf("%s: %s: %d columns, want %d", s.name, shorten(text), len(vals), len(tc.want))
				continue
			}
			for i, w := range tc.want {
				if w == nil && vals[i] != nil || w != nil && (vals[i] == nil || string(vals[i]) != w.(string)) {
					t.Errorf("%s: %s: column %d = %q, want %v", s.name, shorten(text), i, vals[i], w)
				}
				if tc.cols != nil && tc.cols[i] != "" && cols[i] != tc.cols[i] {
					t.Errorf("%s: %s: column %d is named %q, want %q", s.name, shorten(text), i, cols[i], tc.cols[i])
				}
			}
		}
	}
}

// TestMariaDBExecutableComments runs queries with plain executable
// comments before, between and after their placeholders, as applications
// write them: optimizer hints right after SELECT, INSERT, UPDATE and
// DELETE, version comments of keywords, numbers and operators between
// select items, hints after the placeholders. Every one must be accepted
// by Append, AppendArgs and Parse, and the server must return each value
// verbatim, in both escape modes and with ANSI_QUOTES. (MariaDB runs /*!
// and /*M! comments up to its version and reads /*+ as a comment.)
func TestMariaDBExecutableComments(t *testing.T) {
	db := openServer(t)
	a, b, c := `x'?\"`+"`*/", `--' #/*!`, "c\n-- "
	selects := []struct {
		query string
		want  []string // $a and $b stand for the values
	}{
		{"SELECT /*+ MAX_EXECUTION_TIME(1000) */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*+ BKA(t1) NO_BKA(t2) */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*+ SET_VAR(sort_buffer_size=16M) NO_ICP(t1, t2) */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*!40001 SQL_NO_CACHE */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*! STRAIGHT_JOIN */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*M!100000 SQL_CALC_FOUND_ROWS */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*!50000 DISTINCT */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*!999999 DISTINCT */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*+ QB_NAME(q1) */ /*!40001 SQL_NO_CACHE */ /*M!100000 DISTINCT */ ?, ?", []string{"$a", "$b"}},
		{"SELECT /*!50000\n\tSQL_NO_CACHE\r\n*/ ?, ?", []string{"$a", "$b"}},
		{"SELECT 1 /*!50000 , 2 */, ?, ?", []string{"1", "2", "$a", "$b"}},
		{"SELECT 1 /*M!100100 , 2 */, ?, ?", []string{"1", "2", "$a", "$b"}},
		{"SELECT 1 /*!999999 , 2 */, ?, ?", []string{"1", "$a", "$b"}},
		{"SELECT 2 /*!50000 * 3 */, ?, ?", []string{"6", "$a", "$b"}},
		{"SELECT 1 /*!50000 -1 */ - 1, ?, ?", []string{"-1", "$a", "$b"}},
		{"SELECT 1 /*!50000 , (1+2)*3 */, ? /*!50000 AS c1 */, ?", []string{"1", "9", "$a", "$b"}},
		{"SELECT ?/*!50000 , 2*/, ?", []string{"$a", "2", "$b"}},
		{"SELECT ? /*!*/, ? /*M!*/", []string{"$a", "$b"}},
		{"SELECT ?, ? /*+ NO_ICP(t) */", []string{"$a", "$b"}},
		{"SELECT ?, ? /*!50000 , 3 */ /*+ a.b $c */", []string{"$a", "$b", "3"}},
	}
	for _, mode := range []sqlinterp.Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}} {
		s := newSession(t, db, "utf8mb4", mode)
		for _, tc := range selects {
			text := interpolateAll(t, s, tc.query, a, []byte(b))
			got, errno := serverRun(s, text)
			if errno != 0 || len(got) != len(tc.want) {
				t.Errorf("%s: %s: error %d, %d columns; want %d", s.name, shorten(text), errno, len(got), len(tc.want))
				continue
			}
			for i, w := range tc.want {
				w = strings.NewReplacer("$a", a, "$b", b).Replace(w)
				if string(got[i]) != w {
					t.Errorf("%s: %s: column %d = %q, want %q", s.name, shorten(text), i, got[i], w)
				}
			}
		}
		// Writes, on a temporary table of this connection.
		ctx := context.Background()
		for _, stmt := range []string{"CREATE DATABASE IF NOT EXISTS poolkit_sqlinterp",
			"CREATE TEMPORARY TABLE poolkit_sqlinterp.t (a VARBINARY(64), b VARBINARY(64))"} {
			if _, err := s.conn.ExecContext(ctx, stmt); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		writes := []struct {
			query string
			args  []driver.Value
			check string // a query without placeholders
			want  []string
		}{
			{"INSERT /*+ SET_VAR(foreign_key_checks=OFF) */ INTO poolkit_sqlinterp.t VALUES (?, ?)", []driver.Value{a, []byte(b)},
				"SELECT a, b FROM poolkit_sqlinterp.t", []string{a, b}},
			{"UPDATE /*+ NO_RANGE_OPTIMIZATION(t) */ poolkit_sqlinterp.t SET a = ? WHERE b = ?", []driver.Value{c, b},
				"SELECT a, b FROM poolkit_sqlinterp.t", []string{c, b}},
			{"INSERT /*!50000 IGNORE */ INTO poolkit_sqlinterp.t VALUES (?, ?)", []driver.Value{b, a},
				"SELECT COUNT(*), MAX(a), MIN(b) FROM poolkit_sqlinterp.t", []string{"2", c, b}},
			{"DELETE /*+ BKA(t) */ FROM poolkit_sqlinterp.t WHERE a = ? /*!50000 AND b = */ /*M!100000 b */", []driver.Value{c},
				"SELECT COUNT(*), MAX(a) FROM poolkit_sqlinterp.t", []string{"1", b}},
			{"DELETE /*!50000 QUICK */ FROM poolkit_sqlinterp.t WHERE a = ? AND b = ?", []driver.Value{b, a},
				"SELECT COUNT(*) FROM poolkit_sqlinterp.t", []string{"0"}},
		}
		for _, w := range writes {
			text := interpolateAll(t, s, w.query, w.args...)
			if _, err := s.conn.ExecContext(ctx, string(text)); err != nil {
				t.Errorf("%s: %s: %v", s.name, shorten(text), err)
				continue
			}
			got, errno := serverRun(s, []byte(w.check))
			if errno != 0 || len(got) != len(w.want) {
				t.Errorf("%s: after %s: %s: error %d, %d columns", s.name, shorten(text), w.check, errno, len(got))
				continue
			}
			for i := range got {
				if string(got[i]) != w.want[i] {
					t.Errorf("%s: after %s: %s: column %d = %q, want %q", s.name, shorten(text), w.check, i, got[i], w.want[i])
				}
			}
		}
		if _, err := s.conn.ExecContext(ctx, "DROP TEMPORARY TABLE poolkit_sqlinterp.t"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMariaDBCommentBytes checks, for every byte after "--", after "#" and
// after "/*", in three character sets, that the server never reads a
// comment where Append reads code, which would put a value inside a
// comment. The opposite, finding no placeholder where the server reads
// code, only leaves a ? in the query, which the server rejects; the test
// logs those bytes (a quote after "--" starts a string, for instance), and
// those after which CountPlaceholders refuses the query.
func TestMariaDBCommentBytes(t *testing.T) {
	db := openServer(t)
	for _, charset := range []string{"utf8mb4", "latin1", "binary"} {
		for _, noBS := range []bool{false, true} {
			s := newSession(t, db, charset, sqlinterp.Options{NoBackslashEscapes: noBS})
			for _, form := range []string{"SELECT 5--%s?\n", "SELECT 5 #%s?\n", "SELECT 5 /*%s?*/"} {
				var cautious, refused []byte
				for b := range 256 {
					q := fmt.Sprintf(form, string([]byte{byte(b)}))
					n, err := sqlinterp.CountPlaceholders(q, s.opts)
					var qe *sqlinterp.QueryError
					if errors.As(err, &qe) {
						refused = append(refused, byte(b))
						continue
					}
					if err != nil {
						t.Fatalf("%s: CountPlaceholders(%q): %v", s.name, q, err)
					}
					// The query as it is: the server returns 5 only if the
					// ? is inside a comment for it.
					var got []byte
					serverComment := s.conn.QueryRowContext(context.Background(), q).Scan(&got) == nil && string(got) == "5"
					switch {
					case n == 1 && serverComment:
						t.Errorf("%s: %q: the server reads the ? as comment, Append as a placeholder", s.name, q)
					case n == 0 && !serverComment:
						cautious = append(cautious, byte(b))
					}
				}
				if len(cautious) > 0 {
					t.Logf("%s: %q: Append finds no placeholder and the server reads no comment, for bytes %x", s.name, form, cautious)
				}
				if len(refused) > 0 {
					t.Logf("%s: %q: refused for bytes %x", s.name, form, refused)
				}
			}
		}
	}
}

// seedEnv names the environment variable that fixes the seed of
// TestMariaDBOracle, to repeat a failing run; without it every run draws
// new queries.
const seedEnv = "POOLKIT_SQLINTERP_SEED"

// oracleSeed returns the seed of this run's random queries and logs it.
func oracleSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(seedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", seedEnv, s, err)
		}
	}
	t.Logf("seed %d (%s=%d repeats this run)", seed, seedEnv, seed)
	return seed
}

// serverVersion returns the server's version as the number a
// version-conditional comment compares with: 10.11.6 is 101106.
func serverVersion(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v string
	if err := db.QueryRow("SELECT VERSION()").Scan(&v); err != nil {
		t.Fatal(err)
	}
	var major, minor, patch int
	if _, err := fmt.Sscanf(v, "%d.%d.%d", &major, &minor, &patch); err != nil {
		t.Fatalf("server version %q: %v", v, err)
	}
	return major*10000 + minor*100 + patch
}

// queryGen draws random queries that mix placeholders with everything that
// decides where a placeholder is: quotes of the three kinds with escapes and
// doubled quotes inside, #, -- and /* */ comments, executable comments
// (/*! */, /*M! */, /*+ */) with versions on both sides of the server's,
// and newlines, all filled with fragments that end or open one another.
type queryGen struct {
	r       *rand.Rand
	version int
}

// junk is what fills quoted parts and comments: every fragment that ends or
// starts a quoted part or a comment, and placeholders.
var junk = []string{"?", "?", "'", `"`, "`", "''", `\'`, `\\`, `\`, "*/", "/*", "/*!", "/*M!", "*/*", "#", "-- ", "--",
	"\n", " ", "x", "1", ", 'x'", ", ?", "'*/'", "+", "@", "\t", "é", "\xa0", "\xff"}

func (g *queryGen) junk(max int) string {
	var b strings.Builder
	for range g.r.IntN(max + 1) {
		b.WriteString(junk[g.r.IntN(len(junk))])
	}
	return b.String()
}

// quoted returns a quoted part that is usually well formed, with escapes
// and doubled quotes inside.
func (g *queryGen) quoted() string {
	q := [...]string{"'", `"`, "`"}[g.r.IntN(3)]
	var b strings.Builder
	b.WriteString(q)
	for range g.r.IntN(6) {
		switch g.r.IntN(6) {
		case 0:
			b.WriteString(q + q)
		case 1:
			b.WriteString(`\` + q)
		case 2:
			b.WriteString(`\\`)
		default:
			f := junk[g.r.IntN(len(junk))]
			if g.r.IntN(4) != 0 { // mostly keep the part closed where it should be
				f = strings.ReplaceAll(strings.ReplaceAll(f, q, ""), `\`, "")
			}
			b.WriteString(f)
		}
	}
	b.WriteString(q)
	return b.String()
}

func (g *queryGen) versionTag() string {
	return strconv.Itoa([...]int{32302, 40000, 50000, 50699, 50700, 80000, 99999, 100000, g.version - 1, g.version,
		g.version + 1, 999999}[g.r.IntN(12)])
}

// plainFragments fill plain executable comments: hints and version
// comments as applications write them, and the other bytes a plain
// comment may hold.
var plainFragments = []string{"SQL_NO_CACHE", "STRAIGHT_JOIN", "MAX_EXECUTION_TIME(1000)", "BKA(t1)", "NO_BKA(t2)",
	"SET_VAR(sort_buffer_size=16M)", "NO_RANGE_OPTIMIZATION(t3 PRIMARY, f2_idx)", "QB_NAME(qb1)", "JOIN_ORDER(t1, t2)",
	", 2", ", x", "+ 1", "* 3", "- 1", "-", "*", "=", "(", ")", ",", ".", "$", "_", "a.b", "$x", "x_1", "1.5e3",
	" ", " ", "\n", "\t", "\r\n", "\v", "\f"}

// hostileFragments are what keeps an executable comment from being plain:
// each opens a quoted part or a comment, ends the comment early for some
// servers, or is a byte some character set reads otherwise.
var hostileFragments = []string{"'", `"`, "`", "#", "--", "-- ", "/*", "/*!", "?", `\`, "é", "\xa0", "\xff", "'*/'",
	"#*/\n", "-- */\n", "*/*", "/*/", "@", ";", "\x1a",
	// A comment that ends at the newline for a server that runs it, and
	// then a quote that one reading puts in code and the other in it.
	"# */\n*/* '", "-- */\n*/* '", "' */ '"}

// plainBody returns the body of a plain executable comment.
func (g *queryGen) plainBody() string {
	var b strings.Builder
	for range g.r.IntN(6) {
		f := plainFragments[g.r.IntN(len(plainFragments))]
		if strings.HasSuffix(b.String(), "-") && strings.HasPrefix(f, "-") {
			b.WriteString(" ") // -- is not plain
		}
		b.WriteString(f)
	}
	return b.String()
}

// executable returns an executable comment, /*!, /*!NNNNN, /*M!NNNNNN or
// /*+: a plain one, or with hostile a plain one with a hostile fragment
// somewhere in it.
func (g *queryGen) executable(hostile bool) string {
	body := g.plainBody()
	if hostile {
		k := g.r.IntN(len(body) + 1)
		body = body[:k] + hostileFragments[g.r.IntN(len(hostileFragments))] + body[k:]
	}
	switch g.r.IntN(4) {
	case 0:
		return "/*!" + body + "*/"
	case 1:
		return "/*!" + g.versionTag() + " " + body + "*/"
	case 2:
		return "/*M!" + g.versionTag() + " " + body + "*/"
	}
	return "/*+ " + body + " */"
}

// hintQuery returns a SELECT of placeholders (and a few constants) with
// plain executable comments where applications put them: a hint or a
// version comment right after SELECT, version comments that add a select
// item between items, comments the server skips, hints after the last
// item. MariaDB runs every /*! and /*M! comment up to its version and
// reads /*+ as a comment, so each query is valid SQL there, and the
// server must return its values verbatim. With hostile, one of its
// comments holds a hostile fragment as well.
func (g *queryGen) hintQuery(hostile bool) string {
	var parts []string // the comments, one of which may turn hostile
	after := []string{"/*+ MAX_EXECUTION_TIME(1000) */", "/*+ BKA(t1) NO_BKA(t2) */", "/*+ SET_VAR(sort_buffer_size=16M) */",
		"/*+ NO_RANGE_OPTIMIZATION(t3 PRIMARY, f2_idx) */", "/*+ JOIN_ORDER(t1, t2) QB_NAME(qb1) */", "/*!40001 SQL_NO_CACHE */",
		"/*! STRAIGHT_JOIN */", "/*!50000 DISTINCT */", "/*M!100000 SQL_CALC_FOUND_ROWS */", "/*!50000 ALL */"}
	skipped := func() string { // read as a comment by this server, whatever the body
		if g.r.IntN(2) == 0 {
			return "/*+ " + g.plainBody() + " */"
		}
		return "/*!999999 " + g.plainBody() + "*/"
	}
	if g.r.IntN(4) != 0 {
		parts = append(parts, after[g.r.IntN(len(after))])
	}
	var items []string
	for range 1 + g.r.IntN(6) {
		item := "?"
		if g.r.IntN(6) == 0 {
			item = strconv.Itoa(g.r.IntN(100))
		}
		switch g.r.IntN(6) {
		case 0:
			item += " /*!50000 , " + strconv.Itoa(g.r.IntN(100)) + " */"
		case 1:
			item += " /*M!100100 , 7 */"
		case 2:
			item += " " + skipped()
		case 3:
			item += " /*!*/"
		}
		items = append(items, item)
	}
	if g.r.IntN(2) == 0 {
		items[len(items)-1] += " " + skipped()
	}
	// Blanks other than spaces, inside the comments.
	q := "SELECT " + strings.Join(parts, " ") + " " + strings.Join(items, ", ")
	if g.r.IntN(3) == 0 {
		q = strings.Replace(q, " */", [...]string{"\n*/", "\t*/", "\r\n*/"}[g.r.IntN(3)], 1)
	}
	if hostile {
		// One comment's body gets a hostile fragment.
		opens := []int{}
		for i := 0; i+1 < len(q); i++ {
			if q[i] == '/' && q[i+1] == '*' {
				opens = append(opens, i)
			}
		}
		if len(opens) == 0 {
			return q + " " + g.executable(true)
		}
		at := opens[g.r.IntN(len(opens))]
		end := at + strings.Index(q[at:], "*/")
		k := at + 3 + g.r.IntN(end-at-2) // inside the body, or at its end
		q = q[:k] + hostileFragments[g.r.IntN(len(hostileFragments))] + q[k:]
	}
	return q
}

// between returns what separates two select-list items: a comma with, at
// times, comments around it.
func (g *queryGen) between() string {
	var b strings.Builder
	for range g.r.IntN(3) {
		switch g.r.IntN(23) {
		case 0, 1, 2:
			b.WriteString(" #" + g.junk(4) + "\n")
		case 3, 4, 5:
			b.WriteString(" --" + [...]string{" ", "\t", "", "\r"}[g.r.IntN(4)] + g.junk(4) + "\n")
		case 6, 7, 8:
			b.WriteString(" /*" + g.junk(4) + "*/ ")
		case 9:
			b.WriteString(" /*!" + g.junk(4) + "*/ ")
		case 10:
			b.WriteString(" /*!" + g.versionTag() + g.junk(4) + "*/ ")
		case 11:
			b.WriteString(" /*M!" + g.versionTag() + g.junk(4) + "*/ ")
		case 12:
			b.WriteString(" /*+ " + g.junk(3) + "*/ ")
		case 13, 14, 15:
			b.WriteString("\n")
		case 16:
			b.WriteString(" " + g.junk(3) + " ")
		case 17, 18:
			b.WriteString(" " + g.executable(false) + " ")
		case 19:
			b.WriteString(" " + g.executable(true) + " ")
		default:
			b.WriteString(" ")
		}
	}
	if g.r.IntN(12) == 0 {
		return b.String() // no comma: a syntax error, or worse
	}
	return b.String() + ", "
}

// query returns a SELECT of up to seven items (so fewer than ten
// placeholders), about half of them
// placeholders.
func (g *queryGen) query() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if g.r.IntN(4) == 0 {
		b.WriteString(g.executable(g.r.IntN(3) == 0) + " ")
	}
	for i := range 1 + g.r.IntN(7) {
		if i > 0 {
			b.WriteString(g.between())
		}
		switch g.r.IntN(13) {
		case 0, 1, 2, 3, 9, 10, 11:
			b.WriteString("?")
		case 12: // a placeholder touching a quote, another one, a word, a number or an operator
			glued := [...]string{"??", "?'x'", "'x'?", "?" + g.quoted(), g.quoted() + "?", "'x'??'y'", "?e1", "1?",
				"1e-?", "1E+?", "1.5e-?", "0x?", "1.?", "X'41'?", "b'1'?", "N?", "_binary?", "--?", "1/?", "?e-1", "?.5", "?--1"}
			b.WriteString(glued[g.r.IntN(len(glued))])
		case 4:
			b.WriteString([...]string{"@", `\`, "@@"}[g.r.IntN(3)] + "?")
		case 5, 6:
			b.WriteString(g.quoted())
		case 7:
			b.WriteString("1 AS " + g.quoted())
		default:
			b.WriteString(strconv.Itoa(g.r.IntN(100)))
		}
	}
	if g.r.IntN(3) == 0 {
		b.WriteString(g.between())
		b.WriteString(g.quoted())
	}
	return b.String()
}

// payloads change the result if any part of them runs as SQL, ends a
// quoted part or opens a comment.
var payloads = []string{"+ (SELECT 42) +", `' + (SELECT 42) + '`, `" + (SELECT 42) + "`, "` + (SELECT 42) + `", `*/ 1 /*`, "*/, 42, /*",
	`'`, `"`, "`", `\`, `\'`, `''`, `\\'`, "\n-- ", "\n# ", "' -- ", "' # ", `/*! 42 */`, `\' + (SELECT 42) + \'`,
	`'' + (SELECT 42) + ''`, "?", "x\x00y", "\x1a", "\r\n", "é", `\N`, "0x41", "_binary'x'"}

// serverRun runs q on the session's connection and returns its one row's
// columns, or the server's error number (-1 for an error that is not the
// server's).
func serverRun(s *session, q []byte) (vals [][]byte, errno int) {
	rows, err := s.conn.QueryContext(context.Background(), string(q))
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
			return nil, int(me.Number)
		}
		return nil, -1
	}
	return vals, 0
}

// TestMariaDBOracle is the server's check of the query reader: for a few
// thousand random queries per run (a new seed each run, logged) it
// interpolates benign values (~0~, ~1~, …) and then hostile ones, and runs
// both on MariaDB. Where Append accepts a query, the server must read it
// the same way whatever the values: both run, or both fail with the same
// error, and each column of the hostile run is the benign one with the
// hostile values in place of the benign ones, so no hostile value ran as
// SQL or ended its literal early (adjacent literals concatenate, as SQL
// says, so a column may hold several values). A benign value that shows
// in no column (it may be an operand, '~0~' * 'x' is 0) might instead be in
// a comment as the server reads the query: a third run with values that
// end comments, "*/" and a newline, must then read the same too. A query
// the server rejects with every set of values executed nothing; the test
// counts those and the queries Append refused.
func TestMariaDBOracle(t *testing.T) {
	db := openServer(t)
	g := &queryGen{version: serverVersion(t, db)}
	seed := oracleSeed(t)
	g.r = rand.New(rand.NewPCG(seed, 0x5eed))
	var sessions []*session
	for _, mode := range []sqlinterp.Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}, {ANSIQuotes: true, NoBackslashEscapes: true}} {
		sessions = append(sessions, newSession(t, db, "utf8mb4", mode))
	}
	sessions = append(sessions, newSession(t, db, "latin1", sqlinterp.Options{}))
	n := 4000
	if testing.Short() {
		n = 400
	}
	var refused, rejected, ran, values, operands int
	var hints, hostileHints, hostileRefused int
	for i := range n {
		s := sessions[i%len(sessions)]
		// One query in eight has only plain executable comments, and
		// must be accepted and run; one in eight has a hostile one too.
		kind := i / len(sessions) % 8
		var query string
		switch kind {
		case 3:
			query = g.hintQuery(false)
			hints++
		case 7:
			query = g.hintQuery(true)
			hostileHints++
		default:
			query = g.query()
		}
		k, err := sqlinterp.CountPlaceholders(query, s.opts)
		if kind == 3 && err != nil {
			t.Errorf("%s: CountPlaceholders(%q): %v; its executable comments are all plain", s.name, query, err)
		}
		if err != nil {
			if kind == 7 {
				hostileRefused++
			}
			refused++
			if _, err2 := sqlinterp.Append(nil, query, make([]driver.Value, k), s.opts); err2 == nil {
				t.Errorf("%s: CountPlaceholders(%q) failed (%v) but Append accepts it", s.name, query, err)
			}
			continue
		}
		kinds := make([]int, k)
		hostile := make([][]byte, k)
		for j := range k {
			kinds[j] = g.r.IntN(3)
			v := []byte("v" + strconv.Itoa(j) + "|")
			for range 1 + g.r.IntN(3) {
				v = append(v, payloads[g.r.IntN(len(payloads))]...)
			}
			hostile[j] = v
		}
		benignErr, lost := checkReading(t, s, query, kinds, hostile)
		if lost {
			operands++
		}
		if kind == 3 && (benignErr != 0 || lost) {
			t.Errorf("%s: %q: server error %d, a value in no column: %v; want every value back verbatim", s.name, query, benignErr, lost)
		}
		if t.Failed() {
			t.Fatalf("stopping after the first failing query (%s=%d repeats this run)", seedEnv, seed)
		}
		if benignErr != 0 {
			rejected++
		} else {
			ran++
			values += k
		}
	}
	t.Logf("%d queries: %d refused by Append, %d rejected by the server with every value, %d ran (%d values read back verbatim or as the same operand; %d queries with a value in no column rerun with comment enders)",
		n, refused, rejected, ran, values, operands)
	t.Logf("of them %d with only plain executable comments, all accepted, run and read back verbatim; %d with a hostile one too: %d refused, the others read the same with any value",
		hints, hostileHints, hostileRefused)
	if ran < n/10 {
		t.Errorf("only %d of %d queries ran on the server: the generator tests too little", ran, n)
	}
}

// checkReading runs query on the server with benign values (~0~, ~1~, …)
// and with hostile ones, each written as a string, []byte or
// json.RawMessage as kinds says (the type is kept across runs: []byte gets
// _binary), and reports a test error unless the server reads the query the
// same way whatever the values: both run, or both fail with the same error,
// with as many columns, and each column of the benign run that shows values
// is, in the hostile run, the same with the hostile values in place of the
// benign ones (a column that shows none may depend on them, as
// '~0~' < '~1~' does, and is not compared). When a benign value shows in no
// column (it may be an operand: '~0~' * 'x' is 0), it may be in a comment
// as the server reads the query; a third run with values that end comments
// ("*/" and a newline) must then read the same too. It returns the
// benign run's error number (0 when it ran) and whether a value was in no
// column.
// errOutOfRange is ER_DATA_OUT_OF_RANGE, a value out of its type's range
// in an expression.
const errOutOfRange = 1690

func checkReading(t testing.TB, s *session, query string, kinds []int, hostile [][]byte) (benignErr int, lost bool) {
	t.Helper()
	k := len(kinds)
	tags := make([][]byte, k)
	breaker := make([][]byte, k)
	for j := range k {
		tags[j] = []byte("~" + strconv.Itoa(j) + "~") // hostile values and the generator's junk hold no ~
		breaker[j] = []byte("*/\n" + strconv.Itoa(j))
	}
	run := func(vals [][]byte) (text []byte, cols [][]byte, errno int) {
		args := make([]driver.Value, k)
		for j, v := range vals {
			args[j] = [...]driver.Value{string(v), v, json.RawMessage(v)}[kinds[j]]
		}
		text, err := sqlinterp.Append(nil, query, args, s.opts)
		if err != nil {
			t.Fatalf("%s: Append(%q) with %d arguments: %v", s.name, query, k, err)
		}
		// The typed path must write the same query; the server runs its
		// text when it has the types (not json.RawMessage).
		if typed, ok := sqlinterp.TypedArgs(args); ok {
			tq, err := sqlinterp.AppendArgs(nil, query, typed, s.opts)
			if err != nil || !bytes.Equal(tq, text) {
				t.Fatalf("%s: AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(tq), err, shorten(text))
			}
			text = tq
			// And the parsed path, when Parse takes the query (it
			// refuses those that some other mode refuses).
			if q, err := sqlinterp.Parse(query); err == nil {
				pq, err := q.AppendArgs(nil, typed, s.opts)
				if err != nil || !bytes.Equal(pq, text) {
					t.Fatalf("%s: Query.AppendArgs(%q) = %s, %v; Append gave %s", s.name, query, shorten(pq), err, shorten(text))
				}
				text = pq
			}
		}
		cols, errno = serverRun(s, text)
		return text, cols, errno
	}
	benignText, benignCols, benignErr := run(tags)
	// same reports whether vals read as tags did.
	same := func(vals [][]byte) bool {
		t.Helper()
		text, cols, errno := run(vals)
		// An error that only the values' arithmetic raises is no
		// different reading of the query: "SELECT 0^?-1" is out of
		// BIGINT UNSIGNED range (1690) with '~0~', which is 0, and not
		// with '1…'. Such runs cannot be compared.
		if errno != benignErr && (errno == errOutOfRange || benignErr == errOutOfRange) {
			return true
		}
		if errno != benignErr {
			t.Errorf("%s: the values changed how the server reads %q: with %s: error %d, with %s: error %d",
				s.name, query, shorten(benignText), benignErr, shorten(text), errno)
			return false
		}
		if len(cols) != len(benignCols) {
			t.Errorf("%s: %s returned %d columns, %s returned %d", s.name, shorten(benignText), len(benignCols), shorten(text), len(cols))
			return false
		}
		for c := range cols {
			want := benignCols[c]
			for j := range k {
				want = bytes.ReplaceAll(want, tags[j], vals[j])
			}
			// A column that shows no value may still depend on one, as
			// '~0~' < '~1~' does: only its presence is compared.
			if bytes.Equal(want, benignCols[c]) {
				continue
			}
			if !bytes.Equal(cols[c], want) {
				t.Errorf("%s: %s: column %d is %q, want %q as %s gives %q", s.name, shorten(text), c, cols[c], want, shorten(benignText), benignCols[c])
				return false
			}
		}
		return true
	}
	if !same(hostile) || benignErr != 0 {
		return benignErr, false
	}
	for j := range k {
		found := false
		for _, col := range benignCols {
			found = found || bytes.Contains(col, tags[j])
		}
		lost = lost || !found
	}
	if lost {
		same(breaker)
	}
	return benignErr, lost
}
