package main

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// seedInterpolate is the methane article's final interpolation (seeds/002),
// which is go-sql-driver/mysql's interpolateParams: count the ?s, append
// into the connection's reused buffer, strconv.Append* for numbers, the
// time digit by digit, one escaping loop for strings and []byte. Unlike
// the article's version (see internal/workloads.InterpolateSeed) it
// appends to the buffer it is given, so each request can bring its own.
// Like the article it counts every ?, quoted or not: the queries here hold
// none inside literals.
func seedInterpolate(buf []byte, query string, args []driver.Value) ([]byte, error) {
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

// seedEscape backslash-escapes v as mysql_real_escape_string does.
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
