package logfmt

import (
	"bytes"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	gologfmt "github.com/go-logfmt/logfmt"
)

func TestAppendValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"/search?q", "/search?q"},
		{"/search?q=flowers", `"/search?q=flowers"`},
		{"", `""`},
		{"two words", `"two words"`},
		{"a=b", `"a=b"`},
		{`say "hi"`, `"say \"hi\""`},
		{`back\slash`, `back\slash`}, // a backslash alone needs no quotes
		{`back\ and space`, `"back\\ and space"`},
		{"line\nbreak", `"line\nbreak"`},
		{"cr\rtab\t", `"cr\rtab\t"`},
		{"nul\x00", `"nul\u0000"`},
		{"esc\x1b[0m", `"esc\u001b[0m"`},
		{"del\x7f", `"del\u007f"`},
		{"héllo wörld", `"héllo wörld"`},
		{"日本語", "日本語"},
		{"\u00a0nbsp", "\u00a0nbsp"}, // valid UTF-8 above ASCII is bare
		{"\uFFFD", "\uFFFD"},         // a valid replacement character is kept
		{"bad\xff", `"bad\ufffd"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`}, // an encoded surrogate is invalid
		{"trunc\xe6\x97", `"trunc\ufffd\ufffd"`},
	}
	for _, tt := range tests {
		if got := string(AppendValue(nil, tt.in)); got != tt.want {
			t.Errorf("AppendValue(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if got := string(appendValue(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("appendValue([]byte(%q)) = %s, want %s", tt.in, got, tt.want)
		}
		// Appending keeps what dst held.
		if got := string(AppendValue([]byte("k="), tt.in)); got != "k="+tt.want {
			t.Errorf("AppendValue(k=, %q) = %s, want k=%s", tt.in, got, tt.want)
		}
	}
}

func TestAppendKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"path", "path"},
		{"user.id", "user.id"},
		{"", "_"},
		{"two words", "two_words"},
		{"a=b", "a_b"},
		{`q"uote`, "q_uote"},
		{"nl\n", "nl_"},
		{"del\x7f", "del_"},
		{"ключ", "ключ"},
		{"bad\xffkey", "bad_key"},
		{"rep\uFFFDl", "rep_l"}, // go-logfmt rejects U+FFFD in keys
	}
	for _, tt := range tests {
		if got := string(AppendKey(nil, tt.in)); got != tt.want {
			t.Errorf("AppendKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// readBack reports the pairs go-logfmt's Decoder reads from data, as
// key, value, key, value..., failing the test on a syntax error.
func readBack(t testing.TB, data []byte) [][]string {
	t.Helper()
	dec := gologfmt.NewDecoder(bytes.NewReader(data))
	var recs [][]string
	for dec.ScanRecord() {
		var kv []string
		for dec.ScanKeyval() {
			kv = append(kv, string(dec.Key()), string(dec.Value()))
		}
		recs = append(recs, kv)
	}
	if err := dec.Err(); err != nil {
		t.Fatalf("go-logfmt cannot read %q: %v", data, err)
	}
	return recs
}

// wantRead is what a logfmt parser reads back for s: s itself, with each
// byte of invalid UTF-8 replaced by U+FFFD.
func wantRead(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// checkRoundTrip writes key=val other=1 as a line and checks that
// go-logfmt reads back the same pairs.
func checkRoundTrip(t testing.TB, key, val string) {
	t.Helper()
	line := AppendKey(nil, key)
	line = append(line, '=')
	line = AppendValue(line, val)
	line = append(line, " other=1\n"...)
	if i := bytes.IndexByte(line, '\n'); i != len(line)-1 {
		t.Fatalf("line for %q=%q holds a newline before its end: %q", key, val, line)
	}
	recs := readBack(t, line)
	wantKey := string(AppendKey(nil, key))
	if key != "" && !needsKeyFix(key) && wantKey != key {
		t.Fatalf("valid key %q written as %q", key, wantKey)
	}
	want := []string{wantKey, wantRead(val), "other", "1"}
	if len(recs) != 1 || strings.Join(recs[0], "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("%q=%q: wrote %s, read back %q, want %q", key, val, line, recs, want)
	}
}

var roundTripValues = []string{
	"", " ", "plain", "two words", "a=b", "=", `"`, `\`, `\"`, `"\`, "\\n",
	"tab\there", "\r\n", "\x00\x01\x1f\x7f", "null", "true", "-1.5e+10",
	"héllo", "\uFFFD", "\xff", "\xc0\x80", "a\xffb c", "\xed\xa0\x80", "\U0010FFFF",
	"\u2028\u2029", "emoji 🎉", strings.Repeat("long value ", 100),
}

func TestRoundTrip(t *testing.T) {
	for _, v := range roundTripValues {
		checkRoundTrip(t, "key", v)
	}
	// Every single byte, alone and in context.
	for c := 0; c < 256; c++ {
		checkRoundTrip(t, "key", string([]byte{byte(c)}))
		checkRoundTrip(t, "key", "a"+string([]byte{byte(c)})+"b c")
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, v := range roundTripValues {
		f.Add("key", v)
	}
	f.Add("", "")
	f.Add("k e=y\"", "v")
	f.Add("\xff", "\xff")
	f.Fuzz(func(t *testing.T, key, val string) {
		checkRoundTrip(t, key, val)
		if s, b := string(AppendValue(nil, val)), string(appendValue(nil, []byte(val))); s != b {
			t.Fatalf("string and []byte encodings differ for %q: %s vs %s", val, s, b)
		}
		if k := AppendKey(nil, key); needsKeyFix(key) == (string(k) == key) && key != "" {
			t.Fatalf("key %q written as %q", key, k)
		}
	})
}

// needsKeyFix reports whether key holds something AppendKey must replace,
// by a route independent of the encoder's table.
func needsKeyFix(key string) bool {
	return strings.ContainsFunc(key, func(r rune) bool {
		return r <= ' ' || r == '=' || r == '"' || r == 0x7f || r == utf8.RuneError
	})
}

func TestAppendDuration(t *testing.T) {
	ds := []time.Duration{
		0, 1, 999, 1000, 1001, 1500, 999999, 1e6, 1500000, 1e9 - 1, 1e9,
		1500 * time.Millisecond, time.Minute, time.Hour, 90 * time.Minute,
		25*time.Hour + 3*time.Second + 7, math.MaxInt64, math.MinInt64, -1,
		-1500 * time.Millisecond, -time.Hour,
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		ds = append(ds, time.Duration(r.Int64()>>r.IntN(64)))
		ds = append(ds, -time.Duration(r.Int64()>>r.IntN(64)))
	}
	for _, d := range ds {
		if got, want := string(appendDuration(nil, d)), d.String(); got != want {
			t.Fatalf("appendDuration(%d) = %q, want %q", int64(d), got, want)
		}
	}
}

func FuzzAppendDuration(f *testing.F) {
	f.Add(int64(1500 * time.Millisecond))
	f.Add(int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, n int64) {
		d := time.Duration(n)
		if got, want := string(appendDuration(nil, d)), d.String(); got != want {
			t.Fatalf("appendDuration(%d) = %q, want %q", n, got, want)
		}
	})
}

func TestAppendTimeMillis(t *testing.T) {
	const layout = "2006-01-02T15:04:05.000Z07:00" // slog.TextHandler's
	zones := []*time.Location{
		time.UTC, time.FixedZone("east", 5*3600+30*60), time.FixedZone("west", -8*3600),
		time.FixedZone("odd", -(3600 + 59)),
	}
	times := []time.Time{
		time.Unix(1136214245, 0), time.Unix(0, 999999999), time.Unix(-1, 1),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC),
		time.Date(2024, 2, 29, 12, 0, 0, 123456789, time.UTC),
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		times = append(times, time.Unix(r.Int64N(400*365*86400)-200*365*86400, r.Int64N(1e9)))
	}
	for _, tm := range times {
		for _, z := range zones {
			tz := tm.In(z)
			if got, want := string(appendTimeMillis(nil, tz)), tz.Format(layout); got != want {
				t.Fatalf("appendTimeMillis(%v) = %q, want %q", tz, got, want)
			}
		}
	}
}

func TestAppendLevel(t *testing.T) {
	for l := slog.Level(-20); l <= 20; l++ {
		if got, want := string(appendLevel(nil, l)), l.String(); got != want {
			t.Errorf("appendLevel(%d) = %q, want %q", l, got, want)
		}
	}
}

// The cache of the last second gives the same text as time.Format, when it
// hits and when it misses, from many goroutines at once (run with -race).
func TestTimeCache(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("east", 5*3600+30*60), time.FixedZone("west", -8*3600)}
	if loc, err := time.LoadLocation("Europe/Berlin"); err == nil {
		zones = append(zones, loc)
	}
	base := time.Date(2026, 3, 29, 0, 59, 58, 0, time.UTC) // a DST change in Berlin at 01:00 UTC
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for range 5000 {
				tm := base.Add(time.Duration(r.IntN(4))*time.Second + time.Duration(r.IntN(1e9)))
				// Mostly one zone, so that the cache hits, sometimes another.
				if r.IntN(8) == 0 {
					tm = tm.In(zones[r.IntN(len(zones))])
				}
				sec, _ := appendSeconds(nil, tm)
				if want := tm.Format(time.RFC3339); string(sec) != want {
					t.Errorf("appendSeconds(%v) = %q, want %q", tm, sec, want)
					return
				}
				if got, want := appendTimeMillis(nil, tm), tm.Format("2006-01-02T15:04:05.000Z07:00"); string(got) != want {
					t.Errorf("appendTimeMillis(%v) = %q, want %q", tm, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// refNeedsQuotes and refQuoted are the encoder's rules written the plain
// way, a rune at a time, to check the word-at-a-time scans against.
func refNeedsQuotes(s string) bool {
	if s == "" {
		return true
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if r <= ' ' || r == '=' || r == '"' || r == 0x7f {
			return true
		}
	}
	return false
}

func refQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == utf8.RuneError && func() bool { _, n := utf8.DecodeRuneInString(s[i:]); return n == 1 }():
			b.WriteString(`\ufffd`)
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < ' ' || r == 0x7f:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Random strings long enough to cross several 8-byte words, from an
// alphabet dense in the bytes the scans look for, agree with the plain
// rules and read back through go-logfmt.
func TestScansAgainstReference(t *testing.T) {
	pieces := []string{"a", "b", "Z", "0", "/", "_", " ", "=", `"`, `\`, "\n", "\r", "\t", "\x00",
		"\x1f", "\x7f", "\x80", "\xff", "é", "日", "\xe6\x97", "\uFFFD", "🎉", "!", "~"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var sb strings.Builder
		n := r.IntN(40)
		plainRun := r.IntN(2) == 0 // mostly plain letters, to reach the fast paths
		for range n {
			if plainRun && r.IntN(10) != 0 {
				sb.WriteString(pieces[r.IntN(4)])
			} else {
				sb.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		s := sb.String()
		if got, want := needsQuotes(s), refNeedsQuotes(s); got != want {
			t.Fatalf("needsQuotes(%q) = %v, want %v", s, got, want)
		}
		if got, want := string(appendQuoted(nil, s)), refQuoted(s); got != want {
			t.Fatalf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendKey(nil, s)), refKey(s); got != want {
			t.Fatalf("AppendKey(%q) = %q, want %q", s, got, want)
		}
		checkRoundTrip(t, s, s)
	}
}

func refKey(s string) string {
	if s == "" {
		return "_"
	}
	var b strings.Builder
	for i, r := range s {
		if _, n := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && n == 1 {
			b.WriteByte('_')
			continue
		}
		if r <= ' ' || r == '=' || r == '"' || r == 0x7f || r == utf8.RuneError {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
