// Package sqlbaseline holds the SQL interpolators that sqlinterp is
// measured against, and the query they are measured on.
//
// The query and arguments are those of go-sql-driver/mysql's
// BenchmarkInterpolation: one value of each type database/sql hands a
// driver, the strings holding a quote, a double quote, a bell and a NUL.
//
// The baselines follow methane's article on allocation-aware Go
// ("Goでアロケーションに気をつけたコードを書く方法", 2015), which tuned
// go-sql-driver/mysql's interpolateParams: InterpolateNaive is its starting
// point, InterpolateSeed and AppendSeed its final design, rewritten.
// `poolkit bench`, benchmarks/sqlinterp and benchmarks/service use them.
package sqlbaseline

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// InterpolateQuery is the benchmark's query, with one placeholder per
// argument in InterpolateArgs.
const InterpolateQuery = "SELECT ?, ?, ?, ?, ?, ?"

// InterpolateArgs are the benchmark's arguments.
var InterpolateArgs = []driver.Value{
	int64(42424242),
	float64(math.Pi),
	false,
	time.Unix(1423411542, 807015000),
	[]byte("bytes containing special chars ' \" \a \x00"),
	"string containing special chars ' \" \a \x00",
}

// InterpolateWant is the interpolated query every variant must produce.
const InterpolateWant = `SELECT 42424242, 3.141592653589793, 0, '2015-02-08 16:05:42.807015', ` +
	`_binary'bytes containing special chars \' \" ` + "\a" + ` \0', ` +
	`'string containing special chars \' \" ` + "\a" + ` \0'`

// naiveEscaper escapes the bytes mysql_real_escape_string escapes.
var naiveEscaper = strings.NewReplacer(
	`\`, `\\`, `'`, `\'`, `"`, `\"`, "\x00", `\0`, "\n", `\n`, "\r", `\r`, "\x1a", `\Z`)

// InterpolateNaive is the article's starting point: split the query on ?, turn
// each argument into a string, join the parts.
func InterpolateNaive(query string, args []driver.Value) (string, error) {
	chunks := strings.Split(query, "?")
	if len(chunks) != len(args)+1 {
		return "", errors.New("interpolate: placeholder count differs from argument count")
	}
	parts := make([]string, 0, 2*len(chunks))
	parts = append(parts, chunks[0])
	for i, arg := range args {
		var s string
		switch v := arg.(type) {
		case nil:
			s = "NULL"
		case int64:
			s = strconv.FormatInt(v, 10)
		case float64:
			s = strconv.FormatFloat(v, 'g', -1, 64)
		case bool:
			s = "0"
			if v {
				s = "1"
			}
		case time.Time:
			switch {
			case v.IsZero():
				s = "'0000-00-00'"
			case v.Nanosecond() < 1000:
				s = v.In(time.UTC).Format("'2006-01-02 15:04:05'")
			default:
				s = v.In(time.UTC).Format("'2006-01-02 15:04:05.000000'")
			}
		case []byte:
			s = "_binary'" + naiveEscaper.Replace(string(v)) + "'"
		case string:
			s = "'" + naiveEscaper.Replace(v) + "'"
		default:
			return "", fmt.Errorf("interpolate: unsupported type %T", v)
		}
		parts = append(parts, s, chunks[i+1])
	}
	return strings.Join(parts, ""), nil
}

// interpolateSeedBuf stands for the driver's send buffer, which the article's
// final version interpolates into.
var interpolateSeedBuf = make([]byte, 0, 4096)

// InterpolateSeed is the article's final design, rewritten: count the ?s, append
// into the reused send buffer, strconv.Append* for numbers, the time digit
// by digit after rounding to the microsecond, one escaping loop for strings
// and a copy of it for []byte, and string(buf) at the end, the article's
// one remaining allocation. It is not safe for concurrent use.
func InterpolateSeed(query string, args []driver.Value) (string, error) {
	buf, err := AppendSeed(interpolateSeedBuf[:0], query, args)
	if err != nil {
		return "", err
	}
	interpolateSeedBuf = buf
	return string(buf), nil
}

// AppendSeed is InterpolateSeed's loop, appending to the buffer it is
// given, so that a server can bring one per request (benchmarks/service's
// seed variant does). Like the article it counts every ?, quoted or not.
func AppendSeed(buf []byte, query string, args []driver.Value) ([]byte, error) {
	if strings.Count(query, "?") != len(args) {
		return buf, errors.New("interpolate: placeholder count differs from argument count")
	}
	argPos := 0
	for i := 0; i < len(query); i++ {
		q := strings.IndexByte(query[i:], '?')
		if q < 0 {
			buf = append(buf, query[i:]...)
			break
		}
		buf = append(buf, query[i:i+q]...)
		i += q
		switch v := args[argPos].(type) {
		case nil:
			buf = append(buf, "NULL"...)
		case int64:
			buf = strconv.AppendInt(buf, v, 10)
		case float64:
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		case bool:
			if v {
				buf = append(buf, '1')
			} else {
				buf = append(buf, '0')
			}
		case time.Time:
			buf = seedAppendTime(buf, v)
		case []byte:
			buf = append(buf, "_binary'"...)
			buf = seedEscape(buf, v)
			buf = append(buf, '\'')
		case string:
			buf = append(buf, '\'')
			buf = seedEscape(buf, v)
			buf = append(buf, '\'')
		default:
			return buf, fmt.Errorf("interpolate: unsupported type %T", v)
		}
		argPos++
	}
	return buf, nil
}

func seedAppendTime(buf []byte, v time.Time) []byte {
	if v.IsZero() {
		return append(buf, "'0000-00-00'"...)
	}
	v = v.In(time.UTC).Add(500 * time.Nanosecond) // round to the microsecond
	year, month, day := v.Date()
	hour, min, sec := v.Clock()
	buf = append(buf, '\'')
	buf = seed2(buf, year/100)
	buf = seed2(buf, year%100)
	buf = append(buf, '-')
	buf = seed2(buf, int(month))
	buf = append(buf, '-')
	buf = seed2(buf, day)
	buf = append(buf, ' ')
	buf = seed2(buf, hour)
	buf = append(buf, ':')
	buf = seed2(buf, min)
	buf = append(buf, ':')
	buf = seed2(buf, sec)
	if micro := v.Nanosecond() / 1000; micro != 0 {
		buf = append(buf, '.')
		buf = seed2(buf, micro/10000)
		buf = seed2(buf, micro/100%100)
		buf = seed2(buf, micro%100)
	}
	return append(buf, '\'')
}

func seed2(buf []byte, v int) []byte { return append(buf, byte('0'+v/10), byte('0'+v%10)) }

// seedEscape backslash-escapes v, a string or a []byte, as the article's
// escapeStringBackslash and escapeBytesBackslash do.
func seedEscape[S string | []byte](buf []byte, v S) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case 0:
			buf = append(buf, '\\', '0')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\x1a':
			buf = append(buf, '\\', 'Z')
		case '\'', '"', '\\':
			buf = append(buf, '\\', c)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}
