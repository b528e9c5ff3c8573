package main

import (
	"database/sql/driver"
	"net/http"
	"time"

	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/logfmt"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/sqlinterp"
)

// The poolkit variant, built as poolkit's README teaches: gzpool.Handler
// for compression, jsonpool.Decode into a pooled target zeroed first,
// sqlinterp.Append into the request's reused packet buffer,
// jsonpool.Marshal into a reused buffer written with one Write, a
// logfmt.Line access log, and one per-request scratch value from a
// pool.Pool that resets it on Put and drops it when its buffers have grown
// past what a request needs.

// kitScratch is everything one request needs besides the decoded order.
type kitScratch struct {
	receipt Receipt
	args    []driver.Value
	sql     []byte // the connection's packet buffer
	out     []byte // the encoded receipt
}

// Bounds on what a pooled scratch value may keep: a few times what the
// largest valid order needs.
const (
	kitMaxBuf  = 256 << 10
	kitMaxArgs = 4 * maxItems * itemArgs
)

var (
	kitScratches = pool.New(func() *kitScratch { return new(kitScratch) },
		pool.WithReset(func(s *kitScratch) *kitScratch {
			// Keep the capacity, drop every reference into the last
			// request's order, so the pool pins none of its strings.
			clear(s.args)
			clear(s.receipt.Lines)
			clear(s.receipt.Related)
			*s = kitScratch{
				receipt: Receipt{Lines: s.receipt.Lines[:0], Related: s.receipt.Related[:0]},
				args:    s.args[:0], sql: s.sql[:0], out: s.out[:0],
			}
			return s
		}),
		pool.WithKeep(func(s *kitScratch) bool {
			return cap(s.sql) <= kitMaxBuf && cap(s.out) <= kitMaxBuf && cap(s.args) <= kitMaxArgs
		}))
	kitOrders = jsonpool.NewPool[Order]()
)

func newPoolkit() http.Handler { return gzpool.Handler(http.HandlerFunc(servePoolkit)) }

func servePoolkit(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s := kitScratches.Get()
	defer kitScratches.Put(s)
	status, n := http.StatusOK, 0
	var id int64
	var items int
	o, err := jsonpool.Decode(kitOrders, http.MaxBytesReader(w, r.Body, maxBody))
	if err == nil {
		id, items = o.ID, len(o.Items)
		err = o.validate()
		if err == nil {
			n, err = kitServe(w, r, s, o)
		}
		kitOrders.Put(o)
	}
	if err != nil {
		status = writeError(w, err)
	}
	var l logfmt.Line
	l.Time("time", start)
	l.String("method", r.Method)
	l.String("path", r.URL.Path)
	l.Int("status", int64(status))
	l.Int("bytes", int64(n))
	l.Duration("dur", time.Since(start))
	l.Int("order", id)
	l.Int("items", int64(items))
	_ = l.End(&accessLog)
}

func kitServe(w http.ResponseWriter, r *http.Request, s *kitScratch, o *Order) (int, error) {
	fillReceipt(&s.receipt, o)
	var err error
	s.args = appendOrderArgs(s.args[:0], o, &s.receipt)
	if s.sql, err = sqlinterp.Append(s.sql[:0], orderQuery, s.args, sqlinterp.Options{}); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 0, s.sql); err != nil {
		return 0, err
	}
	s.args = appendItemArgs(s.args[:0], o, &s.receipt)
	if s.sql, err = sqlinterp.Append(s.sql[:0], itemsQueries[len(o.Items)], s.args, sqlinterp.Options{}); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 1, s.sql); err != nil {
		return 0, err
	}
	if s.out, err = jsonpool.Marshal(s.out[:0], &s.receipt); err != nil {
		return 0, err
	}
	s.out = append(s.out, '\n') // what json.Encoder writes
	w.Header().Set("Content-Type", contentTypeJSON)
	return w.Write(s.out)
}
