package sqlinterp

import (
	"database/sql/driver"
	"strings"
	"testing"
	"time"
)

var sinkBytes []byte

// BenchmarkAppend times the methane article's benchmark (shared/seeds/002)
// and escaping throughput on long values. benchmarks/sqlinterp compares the
// first with go-sql-driver/mysql.
func BenchmarkAppend(b *testing.B) {
	b.Run("methane/reuse", func(b *testing.B) {
		b.ReportAllocs()
		var dst []byte
		for b.Loop() {
			var err error
			if dst, err = Append(dst[:0], methaneQuery, methaneArgs, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	b.Run("methane/nil", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dst, err := Append(nil, methaneQuery, methaneArgs, Options{})
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = dst
		}
	})
	b.Run("methane/parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var dst []byte
			for pb.Next() {
				var err error
				if dst, err = Append(dst[:0], methaneQuery, methaneArgs, Options{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	// 64 KiB of text with an escape every 64 bytes, as a string and as
	// bytes, in both modes.
	text := strings.Repeat(strings.Repeat("abcdefgh", 8)[:63]+"'", 1024)
	for _, tc := range []struct {
		name string
		arg  driver.Value
		opts Options
	}{
		{"64KiB/string", text, Options{}},
		{"64KiB/bytes", []byte(text), Options{}},
		{"64KiB/string/no-backslash", text, Options{NoBackslashEscapes: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			args := []driver.Value{tc.arg}
			var dst []byte
			for b.Loop() {
				var err error
				if dst, err = Append(dst[:0], "INSERT INTO t VALUES (?)", args, tc.opts); err != nil {
					b.Fatal(err)
				}
			}
			sinkBytes = dst
		})
	}
}

// The methane arguments as a handler has them, in typed variables, so that
// boxing them is not folded away at compile time.
var (
	benchID    = int64(42424242)
	benchPi    = 3.141592653589793
	benchTime  = time.Unix(1423411542, 807015000)
	benchBytes = []byte("bytes containing special chars ' \" \a \x00")
	benchStr   = "string containing special chars ' \" \a \x00"
)

// BenchmarkAppendArgs times one query from typed values: filling an Args
// and AppendArgs, against boxing the same values into a []driver.Value for
// Append on every call, which is what a handler holding them in a struct
// pays on the old path.
func BenchmarkAppendArgs(b *testing.B) {
	b.Run("methane/typed", func(b *testing.B) {
		b.ReportAllocs()
		var args Args
		var dst []byte
		for b.Loop() {
			methaneArgsTyped(&args, benchID, benchPi, benchTime, benchBytes, benchStr)
			var err error
			if dst, err = AppendArgs(dst[:0], methaneQuery, &args, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	b.Run("methane/boxed", func(b *testing.B) {
		b.ReportAllocs()
		vals := make([]driver.Value, 6)
		var dst []byte
		for b.Loop() {
			vals[0], vals[1], vals[2], vals[3], vals[4], vals[5] = benchID, benchPi, false, benchTime, benchBytes, benchStr
			var err error
			if dst, err = Append(dst[:0], methaneQuery, vals, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	b.Run("methane/typed/parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var args Args
			var dst []byte
			for pb.Next() {
				methaneArgsTyped(&args, benchID, benchPi, benchTime, benchBytes, benchStr)
				var err error
				if dst, err = AppendArgs(dst[:0], methaneQuery, &args, Options{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
