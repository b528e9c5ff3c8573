package main

import (
	"io"
	"net/http"
	"slices"

	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/logfmt"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/sqlinterp"
)

// The poolkit variant, built as poolkit's README teaches: one scratch value
// per request from a pool.Pool (WithReset, WithKeep) holding the decode
// target, the receipt, the typed SQL argument list and the buffers;
// the body read into a reused buffer and jsonpool.UnmarshalReuse into the
// target, keeping its capacity (the recipe of Example_handler);
// the two INSERTs parsed once (sqlinterp.MustParse) and interpolated with
// Query.AppendArgs into the request's packet buffer, without boxing;
// jsonpool.AppendEncode into a reused buffer written with one Write;
// httpcompress.Handler for compression (zstd or gzip, as the client
// prefers) and logfmt.AccessLog outside it, logging
// the bytes sent on the wire.

// kitScratch is everything one request needs.
type kitScratch struct {
	body    []byte // the request body, read whole
	order   Order  // the decode target, its Items' capacity kept
	receipt Receipt
	args    sqlinterp.Args
	sql     []byte // the connection's packet buffer
	out     []byte // the encoded receipt
}

// Bounds on what a pooled scratch value may keep: a few times what the
// largest valid order needs.
const (
	kitMaxBuf   = 256 << 10
	kitMaxItems = 2 * maxItems
)

var kitScratches = pool.New(func() *kitScratch { return new(kitScratch) },
	pool.WithReset(func(s *kitScratch) *kitScratch {
		// Keep the capacity, drop every reference into the last request,
		// so the pool pins none of its strings.
		jsonpool.Clear(&s.order)
		clear(s.receipt.Lines)
		clear(s.receipt.Related)
		s.receipt = Receipt{Lines: s.receipt.Lines[:0], Related: s.receipt.Related[:0]}
		s.args.Reset()
		s.body, s.sql, s.out = s.body[:0], s.sql[:0], s.out[:0]
		return s
	}),
	pool.WithKeep(func(s *kitScratch) bool {
		return cap(s.body) <= kitMaxBuf && cap(s.sql) <= kitMaxBuf && cap(s.out) <= kitMaxBuf &&
			cap(s.order.Items) <= kitMaxItems && cap(s.receipt.Lines) <= kitMaxItems
	}))

// The service's statements, read once: interpolating a parsed query reads
// only its arguments.
var (
	kitOrderInsert = sqlinterp.MustParse(orderQuery)
	kitItemInserts = func() (q [maxItems + 1]*sqlinterp.Query) {
		for n := range q {
			q[n] = sqlinterp.MustParse(itemsQueries[n])
		}
		return q
	}()
)

func newPoolkit() http.Handler {
	return logfmt.AccessLog(httpcompress.Handler(http.HandlerFunc(servePoolkit)), &accessLog)
}

func servePoolkit(w http.ResponseWriter, r *http.Request) {
	s := kitScratches.Get()
	defer kitScratches.Put(s)
	o := &s.order
	var err error
	s.body, err = readBody(s.body[:0], r.Body, maxBody)
	if err == nil {
		err = jsonpool.UnmarshalReuse(o, s.body)
	}
	if err == nil {
		err = o.validate()
	}
	if err == nil {
		err = kitServe(w, r, s)
	}
	if err != nil {
		writeError(w, err)
	}
	l := logfmt.AccessLine(w)
	l.Int("order", o.ID)
	l.Int("items", int64(len(o.Items)))
}

func kitServe(w http.ResponseWriter, r *http.Request, s *kitScratch) error {
	o, rc := &s.order, &s.receipt
	fillReceipt(rc, o)
	var err error
	addOrderArgs(&s.args, o, rc)
	if s.sql, err = kitOrderInsert.AppendArgs(s.sql[:0], &s.args, sqlinterp.Options{}); err != nil {
		return err
	}
	if err = db.exec(r.Context(), 0, s.sql); err != nil {
		return err
	}
	addItemArgs(&s.args, o, rc)
	if s.sql, err = kitItemInserts[len(o.Items)].AppendArgs(s.sql[:0], &s.args, sqlinterp.Options{}); err != nil {
		return err
	}
	if err = db.exec(r.Context(), 1, s.sql); err != nil {
		return err
	}
	if s.out, err = jsonpool.AppendEncode(s.out[:0], rc); err != nil {
		return err
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	_, err = w.Write(s.out)
	return err
}

// addOrderArgs sets a to the arguments of orderQuery, typed: the same
// values, in the same order, as appendOrderArgs boxes.
func addOrderArgs(a *sqlinterp.Args, o *Order, r *Receipt) {
	a.Reset()
	a.AddInt64(o.ID)
	a.AddInt64(o.CustomerID)
	a.AddString(o.Email)
	a.AddString(o.Name)
	a.AddString(o.Currency)
	if o.Coupon != "" {
		a.AddString(o.Coupon)
	} else {
		a.AddNull()
	}
	a.AddString(o.Note)
	a.AddBool(o.Express)
	a.AddTime(o.CreatedAt)
	a.AddString(o.Shipping.Street)
	a.AddString(o.Shipping.City)
	a.AddString(o.Shipping.Zip)
	a.AddString(o.Shipping.Country)
	a.AddInt64(r.SubtotalCents)
	a.AddInt64(r.TaxCents)
	a.AddInt64(r.ShippingCents)
	a.AddInt64(r.TotalCents)
	a.AddFloat64(r.WeightKg)
}

// addItemArgs sets a to the arguments of itemsQueries[len(o.Items)].
func addItemArgs(a *sqlinterp.Args, o *Order, r *Receipt) {
	a.Reset()
	for i := range o.Items {
		it, l := &o.Items[i], &r.Lines[i]
		a.AddInt64(o.ID)
		a.AddInt(l.Line)
		a.AddString(it.SKU)
		a.AddString(it.Name)
		a.AddInt64(it.Qty)
		a.AddInt64(it.UnitCents)
		a.AddFloat64(it.WeightKg)
		a.AddInt64(l.LineCents)
	}
}

// readBody appends what r holds to dst, up to max bytes, growing dst to
// little more than max+1 bytes however long r is, as Example_handler's recipe reads a
// body into its scratch value: no reader is wrapped around r, so nothing
// is allocated once dst has grown.
func readBody(dst []byte, r io.Reader, max int) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			if len(dst) > max {
				return dst, errTooLarge
			}
			dst = slices.Grow(dst, min(2*cap(dst)+512, max+1)-len(dst))
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		switch {
		case len(dst) > max:
			return dst, errTooLarge
		case err == io.EOF:
			return dst, nil
		case err != nil:
			return dst, err
		}
	}
}
