package bytebuf

import (
	"math"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// Each appender writes only within the length it leaves B at, whatever
// room B has to spare, so that a B set to a sub-slice of a larger buffer
// never clobbers what follows it.
func TestAppendWritesWithinLength(t *testing.T) {
	when := time.Date(2026, 11, 26, 7, 30, 0, 123456789, time.FixedZone("", -(3*3600+30*60)))
	appenders := map[string]func(b *Buffer){
		"AppendInt":      func(b *Buffer) { b.AppendInt(math.MinInt64) },
		"AppendUint":     func(b *Buffer) { b.AppendUint(math.MaxUint64) },
		"AppendFloat":    func(b *Buffer) { b.AppendFloat(-1.2345678901234567e-300, 'g', -1, 64) },
		"AppendBool":     func(b *Buffer) { b.AppendBool(false) },
		"AppendQuote":    func(b *Buffer) { b.AppendQuote("q\"\n\xff😀") },
		"AppendTime":     func(b *Buffer) { b.AppendTime(when) },
		"AppendTimeNano": func(b *Buffer) { b.AppendTimeNano(when) },
		"WriteString":    func(b *Buffer) { b.WriteString("written") },
		"WriteRune":      func(b *Buffer) { b.WriteRune('😀') },
	}
	for name, appendTo := range appenders {
		for _, room := range []int{0, 1, 5, 19, 20, 40, 64} {
			pooltest.WithinLength(t, name, []byte("pre"), room, func(dst []byte) ([]byte, error) {
				b := &Buffer{B: dst}
				appendTo(b)
				return b.B, nil
			})
		}
	}
}
