//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// The service benchmark's order (benchmarks/service/order.go), as the fast
// decode path's benchmark document.
type benchOrder struct {
	ID         int64        `json:"id"`
	CustomerID int64        `json:"customer_id"`
	Email      string       `json:"email"`
	Name       string       `json:"name"`
	Currency   string       `json:"currency"`
	Coupon     string       `json:"coupon"`
	Note       string       `json:"note"`
	Express    bool         `json:"express"`
	CreatedAt  time.Time    `json:"created_at"`
	Shipping   benchAddress `json:"shipping"`
	Items      []benchItem  `json:"items"`
}

type benchAddress struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

type benchItem struct {
	SKU       string  `json:"sku"`
	Name      string  `json:"name"`
	Qty       int64   `json:"qty"`
	UnitCents int64   `json:"unit_cents"`
	WeightKg  float64 `json:"weight_kg"`
}

// benchOrderJSON is an order of 6 items, 1.1 KB, with strings like the
// service's requests: quotes, backslashes, non-ASCII letters, <, > and &
// (which json.Marshal escapes).
var benchOrderJSON = func() []byte {
	items := []string{"Sencha tea (green, loose leaf, 250 g tin)", "Mug 'Big Blue', stoneware, 350 ml",
		"Coffee filter papers #4, unbleached, pack of 100", "Café crème beans, medium roast, 1 kg",
		`Electric kettle 1.7 l "Quick", brushed steel`, "Spoon & fork set, 24 pieces, dishwasher-safe"}
	o := benchOrder{
		ID: 107919, CustomerID: 51234, Email: "customer4711@example.com", Name: `Bob "Bobby" Tables`,
		Currency: "EUR", Coupon: "WINTER10", Note: "Ring twice; the bell's \"broken\". Third floor, left.",
		Express: true, CreatedAt: time.Date(2026, 11, 22, 10, 17, 42, 0, time.UTC),
		Shipping: benchAddress{Street: "17 Rue de l'Église", City: "Saint-Étienne", Zip: "42000", Country: "FR"},
	}
	for j := range items {
		o.Items = append(o.Items, benchItem{SKU: fmt.Sprintf("SKU-%06d", 100000+j*7919), Name: items[j],
			Qty: int64(1 + j%4), UnitCents: int64(150 + j*1234), WeightKg: float64(1+j*377) / 1000})
	}
	b, err := json.Marshal(&o)
	if err != nil {
		panic(err)
	}
	return b
}()

// BenchmarkFastDecode decodes benchOrderJSON into a reused target three
// ways: json.Unmarshal; UnmarshalReuse's path before the fast decoder
// (isValid, then a pooled json.Decoder); and UnmarshalReuse.
//
//	go test -run '^$' -bench FastDecode -count 6 ./jsonpool | benchstat -col /path -
func BenchmarkFastDecode(b *testing.B) {
	data := benchOrderJSON
	b.Run("path=encoding-json", func(b *testing.B) {
		var v benchOrder
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if err := json.Unmarshal(data, Clear(&v)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=pooled-decoder", func(b *testing.B) {
		var v benchOrder
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if !isValid(data) {
				b.Fatal("invalid")
			}
			if err := decodeValid(data, Clear(&v)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=fast", func(b *testing.B) {
		var v benchOrder
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		if fastDecode(data, Clear(&v), true) != fastDone {
			b.Fatal("the fast path refused the order")
		}
		for b.Loop() {
			if err := UnmarshalReuse(&v, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
