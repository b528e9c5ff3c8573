package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// jsonMarshalStd is encoding/json's Marshal, named so that the request
// generator reads as what it is: the test data, not a measured path.
func jsonMarshalStd(v any) ([]byte, error) { return json.Marshal(v) }

// appendOrderArgs appends the arguments of orderQuery, in order. Every
// variant that interpolates through []driver.Value uses it: putting an
// int64 above 255, a float64, a time.Time or a non-empty string into an
// interface allocates, which is part of what is measured.
func appendOrderArgs(dst []driver.Value, o *Order, r *Receipt) []driver.Value {
	var coupon driver.Value // NULL when there is none
	if o.Coupon != "" {
		coupon = o.Coupon
	}
	return append(dst,
		o.ID, o.CustomerID, o.Email, o.Name, o.Currency, coupon, o.Note, o.Express,
		o.CreatedAt, o.Shipping.Street, o.Shipping.City, o.Shipping.Zip, o.Shipping.Country,
		r.SubtotalCents, r.TaxCents, r.ShippingCents, r.TotalCents, r.WeightKg)
}

// appendItemArgs appends the arguments of itemsQueries[len(o.Items)].
func appendItemArgs(dst []driver.Value, o *Order, r *Receipt) []driver.Value {
	for i := range o.Items {
		it, l := &o.Items[i], &r.Lines[i]
		dst = append(dst, o.ID, int64(l.Line), it.SKU, it.Name, it.Qty, it.UnitCents, it.WeightKg, l.LineCents)
	}
	return dst
}

// ---- the database connection ----

// conn stands for the server's database connection. Without a DSN it
// copies each statement into its send buffer, as a driver writes a
// COM_QUERY packet, and keeps the last order's two statements for the
// driver's identity check; with one it also executes them.
type conn struct {
	mu   sync.Mutex
	last [2][]byte
	db   *sql.DB
}

var db conn

// exec sends statement i (0: the order, 1: its items).
func (c *conn) exec(ctx context.Context, i int, q []byte) error {
	c.mu.Lock()
	c.last[i] = append(c.last[i][:0], q...)
	c.mu.Unlock()
	if c.db != nil {
		_, err := c.db.ExecContext(ctx, string(q))
		return err
	}
	return nil
}

// execString is exec for a statement built as a string.
func (c *conn) execString(ctx context.Context, i int, q string) error {
	c.mu.Lock()
	c.last[i] = append(c.last[i][:0], q...)
	c.mu.Unlock()
	if c.db != nil {
		_, err := c.db.ExecContext(ctx, q)
		return err
	}
	return nil
}

// lastSQL returns copies of the last two statements.
func (c *conn) lastSQL() [2]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return [2]string{string(c.last[0]), string(c.last[1])}
}

// ---- the access log ----

// logSink is where every variant writes its access log: a real writer
// that keeps nothing, so no variant pays for storage, and counts the
// lines, so the driver can check that each request logged one.
type logSink struct {
	writes atomic.Int64
	bytes  atomic.Int64
}

func (s *logSink) Write(p []byte) (int, error) {
	s.writes.Add(1)
	s.bytes.Add(int64(len(p)))
	return len(p), nil
}

var accessLog logSink

// ---- responses ----

// contentTypeJSON is the type of every receipt.
const contentTypeJSON = "application/json"

// emptyResponse is what the empty variant answers.
var emptyResponse = []byte("{\"ok\":true}\n")

// errorStatus maps a decoding or validation error to its status: 413 for
// a body over maxBody, 422 for an order that fails validation, 400 for
// anything that is not one JSON order.
func errorStatus(err error) int {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig), errors.Is(err, errTooLarge):
		return http.StatusRequestEntityTooLarge
	case isValidation(err):
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}

var errTooLarge = errors.New("request body too large")

func isValidation(err error) bool {
	switch err {
	case errNoID, errEmail, errCurrency, errItemsCount, errItem, errAddress, errCreated:
		return true
	}
	return false
}

// writeError answers a failed request: the same status and text in every
// variant.
func writeError(w http.ResponseWriter, err error) int {
	code := errorStatus(err)
	http.Error(w, http.StatusText(code), code)
	return code
}

// acceptsGzip is the naive test of Accept-Encoding (no q-values).
func acceptsGzip(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept-Encoding"), "gzip")
}

// recorder is the naive way to learn a response's status and size: wrap
// the ResponseWriter.
type recorder struct {
	http.ResponseWriter
	status int
	n      int
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	n, err := r.ResponseWriter.Write(p)
	r.n += n
	return n, err
}

// appendLogLine writes the access-log line by hand into the seed variant's
// pooled buffer, as the sync.Pool documentation's example, which the
// published sync.Pool articles measure, does
// (time.Format and Duration.String included): time=... method=POST path=/orders status=200 bytes=... dur=...
// order=... items=...
func appendLogLine(b []byte, start time.Time, r *http.Request, status, n int, id int64, items int) []byte {
	b = append(b, "time="...)
	b = append(b, start.UTC().Format(time.RFC3339)...) // as the article: time.Format
	b = append(b, " method="...)
	b = append(b, r.Method...)
	b = append(b, " path="...)
	b = strconv.AppendQuote(b, r.URL.Path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " dur="...)
	b = append(b, time.Since(start).String()...)
	b = append(b, " order="...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, " items="...)
	b = strconv.AppendInt(b, int64(items), 10)
	return append(b, '\n')
}
