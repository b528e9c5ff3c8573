//go:build ignore

// This file is not built in this module: the scripts next to it copy it
// into a copy of go-sql-driver/mysql's source (the version the benchmarks
// module requires), where it times the driver's unexported
// interpolateParams on the service benchmark's two INSERTs, the queries
// and values of sqlinterp's BenchmarkServiceInserts.

package mysql

import (
	"database/sql/driver"
	"strings"
	"testing"
	"time"
)

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
	sinkService string
)

// serviceArgs appends the two INSERTs' arguments to order and items, as
// a handler boxes them into []driver.Value for the driver.
func serviceArgs(order, items []driver.Value) ([]driver.Value, []driver.Value) {
	order = append(order, int64(123757), int64(61283), "customer4821@example.com", `Bob "Bobby" O'Neil`, "EUR", "WINTER10",
		"Gift — wrap it\nnicely; the bell's \"broken\". Third floor, left.", true, serviceTime, "117 Rue de l'Église",
		"Saint-Étienne", "42000", "FR", int64(18432), int64(3502), int64(1796), int64(23730), 6.531)
	for i, name := range serviceItemNames {
		items = append(items, int64(123757), int64(i+1), serviceSKUs[i], name, int64(1+i%4), int64(150+i*1277),
			float64(1+i*431)/1000, int64((1+i%4)*(150+i*1277)))
	}
	return order, items
}

func serviceConn() *mysqlConn {
	return &mysqlConn{
		cfg:              &Config{InterpolateParams: true, Loc: time.UTC},
		maxAllowedPacket: maxPacketSize,
		maxWriteSize:     maxPacketSize - 1,
		buf:              newBuffer(),
	}
}

// BenchmarkServiceInserts boxes the arguments and interpolates the two
// INSERTs per operation, as BenchmarkServiceInserts in poolkit's sqlinterp
// fills an Args and interpolates them.
func BenchmarkServiceInserts(b *testing.B) {
	mc := serviceConn()
	var order, items []driver.Value
	b.ReportAllocs()
	for b.Loop() {
		order, items = serviceArgs(order[:0], items[:0])
		q, err := mc.interpolateParams(serviceOrderQuery, order)
		if err != nil {
			b.Fatal(err)
		}
		sinkService = q
		if q, err = mc.interpolateParams(serviceItemsQuery, items); err != nil {
			b.Fatal(err)
		}
		sinkService = q
	}
}

// BenchmarkServiceInsertsBoxed interpolates the same INSERTs from
// arguments boxed once, before the loop: the driver's interpolation alone.
func BenchmarkServiceInsertsBoxed(b *testing.B) {
	mc := serviceConn()
	order, items := serviceArgs(nil, nil)
	b.ReportAllocs()
	for b.Loop() {
		q, err := mc.interpolateParams(serviceOrderQuery, order)
		if err != nil {
			b.Fatal(err)
		}
		sinkService = q
		if q, err = mc.interpolateParams(serviceItemsQuery, items); err != nil {
			b.Fatal(err)
		}
		sinkService = q
	}
}
