package sqlinterp

import (
	"database/sql/driver"
	"strings"
	"testing"
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
