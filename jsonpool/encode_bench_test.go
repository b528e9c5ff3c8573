package jsonpool_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/jsonpool"
)

// The receipt of benchmarks/service (order.go, and kitReceipt in
// poolkit.go): the response document of the service benchmark, about
// 5 KB encoded, with jsonpool.Time for its times.

type beReceipt struct {
	OrderID       int64         `json:"order_id"`
	Status        string        `json:"status"`
	Customer      beCustomer    `json:"customer"`
	Currency      string        `json:"currency"`
	Lines         []beLine      `json:"lines"`
	SubtotalCents int64         `json:"subtotal_cents"`
	DiscountCents int64         `json:"discount_cents"`
	TaxCents      int64         `json:"tax_cents"`
	ShippingCents int64         `json:"shipping_cents"`
	TotalCents    int64         `json:"total_cents"`
	WeightKg      float64       `json:"weight_kg"`
	Express       bool          `json:"express"`
	Shipping      beAddress     `json:"shipping"`
	Placed        jsonpool.Time `json:"placed"`
	DeliverBy     jsonpool.Time `json:"deliver_by"`
	Related       []beProduct   `json:"related"`
}

type beCustomer struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type beAddress struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

type beLine struct {
	Line      int     `json:"line"`
	SKU       string  `json:"sku"`
	Name      string  `json:"name"`
	Qty       int64   `json:"qty"`
	UnitCents int64   `json:"unit_cents"`
	LineCents int64   `json:"line_cents"`
	TaxCents  int64   `json:"tax_cents"`
	WeightKg  float64 `json:"weight_kg"`
}

type beProduct struct {
	SKU        string   `json:"sku"`
	Name       string   `json:"name"`
	PriceCents int64    `json:"price_cents"`
	Rating     float64  `json:"rating"`
	Reviews    int      `json:"reviews"`
	InStock    bool     `json:"in_stock"`
	Tags       []string `json:"tags"`
	URL        string   `json:"url"`
}

// receiptLike returns a receipt as the service benchmark answers one: 8
// lines, 20 related products, names with quotes, HTML characters and
// non-ASCII letters.
func receiptLike() *beReceipt {
	r := rand.New(rand.NewPCG(7, 11))
	items := []string{"Sencha tea (green, loose leaf, 250 g tin)", "Mug 'Big Blue', stoneware, 350 ml",
		"Coffee filter papers #4, unbleached, pack of 100", "Café crème beans, medium roast, 1 kg",
		`Electric kettle 1.7 l "Quick", brushed steel`, "Spoon & fork set, 24 pieces, dishwasher-safe"}
	placed := time.Date(2026, 11, 22, 10, 31, 7, 0, time.UTC)
	rc := &beReceipt{
		OrderID: 107919, Status: "accepted", Currency: "EUR",
		Customer: beCustomer{ID: 51234, Name: "Li Wei <admin>", Email: "customer4242@example.com"},
		Express:  true, Shipping: beAddress{Street: "12 Rue de l'Église", City: "Saint-Étienne", Zip: "42000", Country: "FR"},
		Placed: jsonpool.Time{Time: placed}, DeliverBy: jsonpool.Time{Time: placed.AddDate(0, 0, 2)},
	}
	for i := range 8 {
		qty, unit := 1+r.Int64N(4), 150+r.Int64N(9000)
		line := qty * unit
		rc.Lines = append(rc.Lines, beLine{Line: i + 1, SKU: fmt.Sprintf("SKU-%06d", r.IntN(1000000)), Name: items[i%len(items)],
			Qty: qty, UnitCents: unit, LineCents: line, TaxCents: (line*190 + 500) / 1000, WeightKg: float64(qty) * float64(1+r.IntN(3000)) / 1000})
		rc.SubtotalCents += line
		rc.WeightKg += rc.Lines[i].WeightKg
	}
	rc.TaxCents, rc.ShippingCents = rc.SubtotalCents*19/100, 980
	rc.TotalCents = rc.SubtotalCents + rc.TaxCents + rc.ShippingCents
	adjectives := []string{"Classic", "Compact", "Deluxe", "Everyday", "Heavy-duty", "Organic", "Travel", "Smart"}
	nouns := []string{"kettle", "backpack", "notebook", "lamp", "mug", "blanket", "headphones", "teapot", "grinder", "scale"}
	tags := []string{"home", "kitchen", "office", "outdoor", "gift", "eco", "bestseller", "new", "sale"}
	for i := range 20 {
		a, n := adjectives[r.IntN(len(adjectives))], nouns[r.IntN(len(nouns))]
		sku := fmt.Sprintf("P-%05d", 10000+i*37)
		rc.Related = append(rc.Related, beProduct{SKU: sku, Name: a + " " + n, PriceCents: 199 + r.Int64N(20000),
			Rating: float64(20+r.IntN(31)) / 10, Reviews: r.IntN(5000), InStock: r.IntN(5) != 0,
			Tags: []string{tags[r.IntN(len(tags))], tags[r.IntN(len(tags))]},
			URL:  "https://shop.example/p/" + sku + "/" + strings.ToLower(strings.ReplaceAll(a+"-"+n, " ", "-"))})
	}
	return rc
}

func TestReceiptLikeFastAndExact(t *testing.T) {
	rc := receiptLike()
	want, err := json.Marshal(rc)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 4000 || len(want) > 7000 {
		t.Errorf("the receipt encodes to %d bytes, want about 5 KB", len(want))
	}
	checkFast(t, rc, false)
	checkEncodes(t, jsonpool.Options{}, rc)
	checkEncodes(t, jsonpool.Options{NoHTMLEscape: true}, rc)
}

// BenchmarkEncodeReceipt compares, on the service benchmark's receipt,
// a json.Encoder, jsonpool.AppendEncode without its fast path (a pooled
// json.Encoder, as before the fast path) and jsonpool.AppendEncode.
//
//	go test -run '^$' -bench EncodeReceipt -count 6 ./jsonpool | benchstat -col /variant -
func BenchmarkEncodeReceipt(b *testing.B) {
	rc := receiptLike()
	dst := make([]byte, 0, 16<<10)
	b.Run("variant=encoding-json", func(b *testing.B) {
		var w sliceWriter
		w.b = dst
		enc := json.NewEncoder(&w)
		b.SetBytes(int64(len(mustMarshal(b, rc)) + 1))
		loop(b, func() error { w.b = w.b[:0]; return enc.Encode(rc) })
	})
	b.Run("variant=jsonpool-without-fast-path", func(b *testing.B) {
		b.SetBytes(int64(len(mustMarshal(b, rc)) + 1))
		loop(b, func() (err error) { dst, err = jsonpool.AppendEncodeJSON(jsonpool.Options{}, dst[:0], rc); return err })
	})
	b.Run("variant=jsonpool", func(b *testing.B) {
		b.SetBytes(int64(len(mustMarshal(b, rc)) + 1))
		loop(b, func() (err error) { dst, err = jsonpool.AppendEncode(dst[:0], rc); return err })
	})
}

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func mustMarshal(b *testing.B, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
