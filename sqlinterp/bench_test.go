package sqlinterp

import (
	"database/sql/driver"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

var sinkBytes []byte

// BenchmarkAppend times go-sql-driver/mysql's BenchmarkInterpolation query
// (internal/sqlbaseline; "methane" after the article that tuned it) and
// escaping throughput on long values. benchmarks/sqlinterp compares the
// first with go-sql-driver/mysql.
func BenchmarkAppend(b *testing.B) {
	b.Run("methane/reuse", func(b *testing.B) {
		b.ReportAllocs()
		var dst []byte
		for b.Loop() {
			var err error
			if dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	b.Run("methane/nil", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dst, err := Append(nil, sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{})
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
				if dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{}); err != nil {
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
			if dst, err = AppendArgs(dst[:0], sqlbaseline.InterpolateQuery, &args, Options{}); err != nil {
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
			if dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, vals, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	b.Run("methane/typed-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var args Args
			var dst []byte
			for pb.Next() {
				methaneArgsTyped(&args, benchID, benchPi, benchTime, benchBytes, benchStr)
				var err error
				if dst, err = AppendArgs(dst[:0], sqlbaseline.InterpolateQuery, &args, Options{}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// The service benchmark's two INSERTs (benchmarks/service, order.go), with
// values of the same kind: quotes, backslashes, a newline and non-ASCII
// letters in the strings, cents as integers, weights as floats.
var (
	serviceOrderQuery = "INSERT INTO orders (id, customer_id, email, name, currency, coupon, note, express, " +
		"created_at, ship_street, ship_city, ship_zip, ship_country, subtotal_cents, tax_cents, " +
		"shipping_cents, total_cents, weight_kg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	serviceItemsQuery = "INSERT INTO order_items (order_id, line, sku, name, qty, unit_cents, weight_kg, line_cents) VALUES " +
		strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?), ", 6) + "(?, ?, ?, ?, ?, ?, ?, ?)"
	serviceItemNames = []string{"Sencha tea (green, loose leaf, 250 g tin)", "Mug 'Big Blue', stoneware, 350 ml",
		"Coffee filter papers #4, unbleached, pack of 100", "Café crème beans, medium roast, 1 kg",
		`Electric kettle 1.7 l "Quick", brushed steel`, "Spoon & fork set, 24 pieces, dishwasher-safe", `C:\Users\dan's mug`}
	serviceSKUs = []string{"SKU-100000", "SKU-191733", "SKU-283466", "SKU-375199", "SKU-466932", "SKU-558665", "SKU-650398"}
	serviceTime = time.Date(2026, 11, 22, 10, 37, 12, 0, time.UTC)
)

// The service's two INSERTs parsed once, as a service keeps them in
// package-level variables.
var (
	serviceOrder = MustParse(serviceOrderQuery)
	serviceItems = MustParse(serviceItemsQuery)
)

// serviceInserts fills args and interpolates the service's two INSERTs
// into dst, as its handler does per request: with AppendArgs, or with the
// parsed queries' AppendArgs when parsed is true.
func serviceInserts(dst []byte, args *Args, parsed bool) ([]byte, error) {
	args.Reset()
	args.AddInt64(123757)
	args.AddInt64(61283)
	args.AddString("customer4821@example.com")
	args.AddString(`Bob "Bobby" O'Neil`)
	args.AddString("EUR")
	args.AddString("WINTER10")
	args.AddString("Gift — wrap it\nnicely; the bell's \"broken\". Third floor, left.")
	args.AddBool(true)
	args.AddTime(serviceTime)
	args.AddString("117 Rue de l'Église")
	args.AddString("Saint-Étienne")
	args.AddString("42000")
	args.AddString("FR")
	args.AddInt64(18432)
	args.AddInt64(3502)
	args.AddInt64(1796)
	args.AddInt64(23730)
	args.AddFloat64(6.531)
	var err error
	if parsed {
		dst, err = serviceOrder.AppendArgs(dst[:0], args, Options{})
	} else {
		dst, err = AppendArgs(dst[:0], serviceOrderQuery, args, Options{})
	}
	if err != nil {
		return dst, err
	}
	args.Reset()
	for i, name := range serviceItemNames {
		args.AddInt64(123757)
		args.AddInt(i + 1)
		args.AddString(serviceSKUs[i])
		args.AddString(name)
		args.AddInt64(int64(1 + i%4))
		args.AddInt64(int64(150 + i*1277))
		args.AddFloat64(float64(1+i*431) / 1000)
		args.AddInt64(int64((1 + i%4) * (150 + i*1277)))
	}
	if parsed {
		return serviceItems.AppendArgs(dst[:0], args, Options{})
	}
	return AppendArgs(dst[:0], serviceItemsQuery, args, Options{})
}

// BenchmarkServiceInserts times the service benchmark's SQL per request:
// filling an Args and AppendArgs for its two INSERTs, into a reused dst.
// benchmarks/sqlinterp/instructions.sh counts its instructions.
func BenchmarkServiceInserts(b *testing.B) { benchServiceInserts(b, false) }

// BenchmarkServiceInsertsParsed is BenchmarkServiceInserts with the
// queries parsed once, by Parse, and Query.AppendArgs.
func BenchmarkServiceInsertsParsed(b *testing.B) { benchServiceInserts(b, true) }

func benchServiceInserts(b *testing.B, parsed bool) {
	b.ReportAllocs()
	var args Args
	var dst []byte
	for b.Loop() {
		var err error
		if dst, err = serviceInserts(dst, &args, parsed); err != nil {
			b.Fatal(err)
		}
	}
	sinkBytes = dst
}
