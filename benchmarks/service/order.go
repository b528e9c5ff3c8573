package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// The endpoint every variant serves: POST /orders with a JSON order of
// about 1 KB. The handler decodes and validates it, interpolates an INSERT
// for the order and one for its line items (as a MySQL driver fills its
// packet buffer), answers with a receipt of about 5 KB (the order with
// computed totals and a list of related products), gzipped when the client
// accepts it, and writes one access-log line.
//
// What the variants share is the application's own logic: the types, the
// validation, the SQL text and its arguments in order, and the receipt's
// computation. What they do differently is the plumbing a pool or a peer
// library replaces: decoding, interpolation, encoding, compression, logging.

// Order is the request document.
type Order struct {
	ID         int64     `json:"id"`
	CustomerID int64     `json:"customer_id"`
	Email      string    `json:"email"`
	Name       string    `json:"name"`
	Currency   string    `json:"currency"`
	Coupon     string    `json:"coupon"`
	Note       string    `json:"note"`
	Express    bool      `json:"express"`
	CreatedAt  time.Time `json:"created_at"`
	Shipping   Address   `json:"shipping"`
	Items      []Item    `json:"items"`
}

// Address is where an order goes.
type Address struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
}

// Item is one line of an order.
type Item struct {
	SKU       string  `json:"sku"`
	Name      string  `json:"name"`
	Qty       int64   `json:"qty"`
	UnitCents int64   `json:"unit_cents"`
	WeightKg  float64 `json:"weight_kg"`
}

// maxItems bounds the lines of one order; maxBody the request's size.
const (
	maxItems = 50
	maxBody  = 64 << 10
)

// The validation errors. They are values, so a valid order allocates
// nothing to validate and every variant answers an invalid one alike.
var (
	errNoID       = errors.New("order: id and customer_id must be positive")
	errEmail      = errors.New("order: email must hold an @")
	errCurrency   = errors.New("order: currency must be three capital letters")
	errItemsCount = errors.New("order: an order has 1 to 50 items")
	errItem       = errors.New("order: every item needs a sku, a name, qty 1 to 1000 and a price 0 to 10^9 cents")
	errAddress    = errors.New("order: the shipping address needs a street, a city and a country")
	errCreated    = errors.New("order: created_at is missing")
)

// validate reports the first thing wrong with o, or nil.
func (o *Order) validate() error {
	switch {
	case o.ID <= 0 || o.CustomerID <= 0:
		return errNoID
	case strings.IndexByte(o.Email, '@') <= 0:
		return errEmail
	case len(o.Currency) != 3 || !upper(o.Currency):
		return errCurrency
	case len(o.Items) == 0 || len(o.Items) > maxItems:
		return errItemsCount
	case o.Shipping.Street == "" || o.Shipping.City == "" || o.Shipping.Country == "":
		return errAddress
	case o.CreatedAt.IsZero():
		return errCreated
	}
	for i := range o.Items {
		it := &o.Items[i]
		if it.SKU == "" || it.Name == "" || it.Qty < 1 || it.Qty > 1000 ||
			it.UnitCents < 0 || it.UnitCents > 1e9 || it.WeightKg < 0 {
			return errItem
		}
	}
	return nil
}

func upper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// ---- SQL ----

// orderQuery inserts the order, 18 placeholders.
const orderQuery = "INSERT INTO orders (id, customer_id, email, name, currency, coupon, note, express, " +
	"created_at, ship_street, ship_city, ship_zip, ship_country, subtotal_cents, tax_cents, " +
	"shipping_cents, total_cents, weight_kg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// itemsQueries[n] inserts n line items in one statement, 8 placeholders
// per row. The text is the application's, built once: no
// variant pays for building it.
var itemsQueries = func() [maxItems + 1]string {
	var q [maxItems + 1]string
	const head = "INSERT INTO order_items (order_id, line, sku, name, qty, unit_cents, weight_kg, line_cents) VALUES "
	const row = "(?, ?, ?, ?, ?, ?, ?, ?)"
	for n := 1; n <= maxItems; n++ {
		q[n] = head + strings.Repeat(row+", ", n-1) + row
	}
	return q
}()

// ---- the receipt ----

// Receipt is the response document.
type Receipt struct {
	OrderID       int64         `json:"order_id"`
	Status        string        `json:"status"`
	Customer      Customer      `json:"customer"`
	Currency      string        `json:"currency"`
	Lines         []ReceiptLine `json:"lines"`
	SubtotalCents int64         `json:"subtotal_cents"`
	DiscountCents int64         `json:"discount_cents"`
	TaxCents      int64         `json:"tax_cents"`
	ShippingCents int64         `json:"shipping_cents"`
	TotalCents    int64         `json:"total_cents"`
	WeightKg      float64       `json:"weight_kg"`
	Express       bool          `json:"express"`
	Shipping      Address       `json:"shipping"`
	Placed        time.Time     `json:"placed"`
	DeliverBy     time.Time     `json:"deliver_by"`
	Related       []Product     `json:"related"`
}

// Customer is who placed the order.
type Customer struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// ReceiptLine is one priced line of the receipt.
type ReceiptLine struct {
	Line      int     `json:"line"`
	SKU       string  `json:"sku"`
	Name      string  `json:"name"`
	Qty       int64   `json:"qty"`
	UnitCents int64   `json:"unit_cents"`
	LineCents int64   `json:"line_cents"`
	TaxCents  int64   `json:"tax_cents"`
	WeightKg  float64 `json:"weight_kg"`
}

// Product is a related product from the catalog.
type Product struct {
	SKU        string   `json:"sku"`
	Name       string   `json:"name"`
	PriceCents int64    `json:"price_cents"`
	Rating     float64  `json:"rating"`
	Reviews    int      `json:"reviews"`
	InStock    bool     `json:"in_stock"`
	Tags       []string `json:"tags"`
	URL        string   `json:"url"`
}

const (
	relatedCount = 20
	taxPermille  = 190 // 19% VAT
)

// catalog is the shop's product list, fixed so that every run and every
// variant sees the same one.
var catalog = func() []Product {
	r := rand.New(rand.NewPCG(7, 11))
	adjectives := []string{"Classic", "Compact", "Deluxe", "Everyday", "Heavy-duty", "Organic", "Travel", "Smart"}
	nouns := []string{"kettle", "backpack", "notebook", "lamp", "mug", "blanket", "headphones", "teapot", "grinder", "scale"}
	tags := []string{"home", "kitchen", "office", "outdoor", "gift", "eco", "bestseller", "new", "sale"}
	p := make([]Product, 64)
	for i := range p {
		a, n := adjectives[r.IntN(len(adjectives))], nouns[r.IntN(len(nouns))]
		sku := fmt.Sprintf("P-%05d", 10000+i*37)
		p[i] = Product{
			SKU:        sku,
			Name:       a + " " + n,
			PriceCents: 199 + r.Int64N(20000),
			Rating:     float64(20+r.IntN(31)) / 10,
			Reviews:    r.IntN(5000),
			InStock:    r.IntN(5) != 0,
			Tags:       []string{tags[r.IntN(len(tags))], tags[r.IntN(len(tags))]},
			URL:        "https://shop.example/p/" + sku + "/" + strings.ToLower(strings.ReplaceAll(a+"-"+n, " ", "-")),
		}
	}
	return p
}()

// fillReceipt computes the receipt of o into r, totals included. r's
// previous content is overwritten; its slices are truncated, not
// replaced, so a pooled receipt keeps their capacity.
func fillReceipt(r *Receipt, o *Order) {
	lines, related := r.Lines[:0], r.Related[:0]
	*r = Receipt{
		OrderID:  o.ID,
		Status:   "accepted",
		Customer: Customer{ID: o.CustomerID, Name: o.Name, Email: o.Email},
		Currency: o.Currency,
		Express:  o.Express,
		Shipping: o.Shipping,
		Placed:   o.CreatedAt,
	}
	var h uint64 = 14695981039346656037
	for i := range o.Items {
		it := &o.Items[i]
		line := it.Qty * it.UnitCents
		tax := (line*taxPermille + 500) / 1000
		lines = append(lines, ReceiptLine{
			Line: i + 1, SKU: it.SKU, Name: it.Name, Qty: it.Qty,
			UnitCents: it.UnitCents, LineCents: line, TaxCents: tax,
			WeightKg: float64(it.Qty) * it.WeightKg,
		})
		r.SubtotalCents += line
		r.TaxCents += tax
		r.WeightKg += float64(it.Qty) * it.WeightKg
		for j := 0; j < len(it.SKU); j++ {
			h = (h ^ uint64(it.SKU[j])) * 1099511628211
		}
	}
	if o.Coupon != "" {
		r.DiscountCents = r.SubtotalCents / 10
	}
	r.ShippingCents = 490 + int64(r.WeightKg*100)
	days := 5
	if o.Express {
		r.ShippingCents *= 2
		days = 2
	}
	r.TotalCents = r.SubtotalCents - r.DiscountCents + r.TaxCents + r.ShippingCents
	r.DeliverBy = o.CreatedAt.AddDate(0, 0, days)
	for i := range relatedCount {
		related = append(related, catalog[(h+uint64(i)*7)%uint64(len(catalog))])
	}
	r.Lines, r.Related = lines, related
}

// ---- the requests the load generator sends ----

// loadBodies is how many different orders the load sends, round-robin.
const loadBodies = 8

// requestBodies returns n different orders, encoded, each with 5 to 10
// items; their strings hold quotes, backslashes, non-ASCII letters and
// HTML-special bytes, so that the SQL escaping and the JSON encoding of
// every variant are exercised.
func requestBodies(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"Ada O'Neil", `Bob "Bobby" Tables`, "Zoë Åberg", "Li Wei <admin>", `C:\Users\dan`, "Ana & Jo"}
	notes := []string{"Please leave the parcel at the door if nobody answers.", "Ring twice; the bell's \"broken\". Third floor, left.", "",
		"Gift — wrap it\nnicely, and leave out the invoice", "N/A"}
	items := []string{"Sencha tea (green, loose leaf, 250 g tin)", "Mug 'Big Blue', stoneware, 350 ml",
		"Coffee filter papers #4, unbleached, pack of 100", "Café crème beans, medium roast, 1 kg",
		`Electric kettle 1.7 l "Quick", brushed steel`, "Spoon & fork set, 24 pieces, dishwasher-safe"}
	out := make([][]byte, n)
	for i := range out {
		o := Order{
			ID:         100000 + int64(i)*7919,
			CustomerID: 5000 + r.Int64N(90000),
			Email:      fmt.Sprintf("customer%d@example.com", r.IntN(10000)),
			Name:       names[i%len(names)],
			Currency:   "EUR",
			Note:       notes[i%len(notes)],
			Express:    i%3 == 0,
			CreatedAt:  time.Date(2026, 11, 22, 10, r.IntN(60), r.IntN(60), 0, time.UTC),
			Shipping:   Address{Street: fmt.Sprintf("%d Rue de l'Église", 1+r.IntN(200)), City: "Saint-Étienne", Zip: "42000", Country: "FR"},
		}
		if i%2 == 0 {
			o.Coupon = "WINTER10"
		}
		for j := range 5 + i%6 {
			o.Items = append(o.Items, Item{
				SKU:       fmt.Sprintf("SKU-%06d", r.IntN(1000000)),
				Name:      items[(i+j)%len(items)],
				Qty:       1 + r.Int64N(4),
				UnitCents: 150 + r.Int64N(9000),
				WeightKg:  float64(1+r.IntN(3000)) / 1000,
			})
		}
		b, err := jsonMarshalStd(&o)
		if err != nil {
			panic(err)
		}
		out[i] = b
	}
	return out
}
