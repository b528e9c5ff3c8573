package bytebuf_test

import (
	"fmt"
	"os"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
)

// logLine formats one log line into a pooled buffer and writes it out; the
// buffer goes back to the pool only after the write returns.
func logLine(msg string, status int, took time.Duration, at time.Time) {
	b := bytebuf.Get()
	defer bytebuf.Put(b) // runs after WriteTo: nothing uses b.Bytes() later

	b.AppendTime(at)
	b.WriteString(" msg=")
	b.AppendQuote(msg)
	b.WriteString(" status=")
	b.AppendInt(int64(status))
	b.WriteString(" took_ms=")
	b.AppendFloat(took.Seconds()*1000, 'f', 1, 64)
	b.WriteByte('\n')
	b.WriteTo(os.Stdout)
}

func Example() {
	at := time.Date(2026, 11, 21, 23, 24, 27, 0, time.FixedZone("", 9*3600))
	logLine("user created", 201, 1500*time.Microsecond, at)
	// Output: 2026-11-21T23:24:27+09:00 msg="user created" status=201 took_ms=1.5
}

func ExampleBuffer_String() {
	var p bytebuf.Pool
	b := p.Get()
	b.WriteString("id=")
	b.AppendUint(42)
	s := b.String() // a copy: still valid after Put
	p.Put(b)
	fmt.Println(s)
	// Output: id=42
}

func ExampleAppendRFC3339() {
	t := time.Date(2006, 1, 2, 15, 4, 5, 120000000, time.FixedZone("", -7*3600))
	dst := make([]byte, 0, 64)
	dst = bytebuf.AppendRFC3339(dst, t, false)
	dst = append(dst, ' ')
	dst = bytebuf.AppendRFC3339(dst, t, true)
	fmt.Println(string(dst))
	// Output: 2006-01-02T15:04:05-07:00 2006-01-02T15:04:05.12-07:00
}

func ExamplePool_Calibration() {
	var p bytebuf.Pool
	for range 40000 { // enough traffic to calibrate
		b := p.Get()
		b.Write(make([]byte, 3000))
		p.Put(b)
	}
	c := p.Calibration()
	fmt.Println("new buffers start at", c.DefaultSize, "bytes; kept up to", c.MaxSize)
	// Output: new buffers start at 4096 bytes; kept up to 8192
}

func ExamplePool_EnableStats() {
	var p bytebuf.Pool
	p.EnableStats() // before first use, so the counts start together

	a, b := p.Get(), p.Get() // an empty pool: both are new
	p.Put(a)
	p.Put(b)

	s := p.Stats()
	fmt.Printf("gets %d, puts %d, news %d, drops %d\n", s.Gets, s.Puts, s.News, s.Drops)
	// Output: gets 2, puts 2, news 2, drops 0
}
