package sqlinterp_test

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
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
func openServer(t *testing.T) *sql.DB {
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

func newSession(t *testing.T, db *sql.DB, charset string, opts sqlinterp.Options) *session {
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
	for _, stmt := range []string{"SET NAMES " + charset, "SET SESSION sql_mode = '" + mode + "'", "SET SESSION time_zone = '+00:00'"} {
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
	q, err := sqlinterp.Append(nil, query, args, s.opts)
	if err != nil {
		t.Fatalf("%s: Append(%q): %v", s.name, query, err)
	}
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
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1e300, 4.9e-300}
	loc := time.FixedZone("UTC+5:30", 5*3600+1800)
	times := []time.Time{
		time.Unix(1423411542, 807015000), // the methane article's time
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
		{query: "SELECT ? /*! , ? */", want: []string{a, b}},
		{query: "SELECT ? /*!, '*/' */, ?", want: []string{a, "*/", b}},
		// Version-conditional comments: the server runs or skips them
		// (want lists both readings, the middle column being optional).
		{query: "SELECT ? /*!100000 , 'x' */, ?", want: []string{a, "x?", b}},
		{query: "SELECT ? /*!999999 , 'x' */, ?", want: []string{a, "x?", b}},
		{query: "SELECT ? /*M!100100 , 'x' */, ?", want: []string{a, "x?", b}},
		{query: "SELECT ? /*!50000 , 'x' /* y */ */, ?", want: []string{a, "x?", b}},
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
		if len(tc.want) == 3 && tc.want[1] == "x?" {
			if len(got) == 2 { // the server skipped the comment
				got = [][]byte{got[0], []byte("x?"), got[1]}
			} else if len(got) == 3 && string(got[1]) == "x" {
				got[1] = []byte("x?")
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

// TestMariaDBCommentBytes checks, for every byte after "--", after "#" and
// after "/*", in three character sets, that the server never reads a
// comment where Append reads code, which would put a value inside a
// comment. The opposite, finding no placeholder where the server reads
// code, only leaves a ? in the query, which the server rejects; the test
// logs those bytes (a quote after "--" starts a string, for instance).
func TestMariaDBCommentBytes(t *testing.T) {
	db := openServer(t)
	for _, charset := range []string{"utf8mb4", "latin1", "binary"} {
		for _, noBS := range []bool{false, true} {
			s := newSession(t, db, charset, sqlinterp.Options{NoBackslashEscapes: noBS})
			for _, form := range []string{"SELECT 5--%s?\n", "SELECT 5 #%s?\n", "SELECT 5 /*%s?*/"} {
				var cautious []byte
				for b := range 256 {
					q := fmt.Sprintf(form, string([]byte{byte(b)}))
					n, err := sqlinterp.CountPlaceholders(q, s.opts)
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
			}
		}
	}
}
