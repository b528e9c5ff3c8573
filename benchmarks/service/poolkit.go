package main

import (
	"database/sql/driver"
	"net/http"

	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/logfmt"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/sqlinterp"
)

// The poolkit variant, built as poolkit's README teaches: one scratch value
// per request from a pool.Pool (WithReset, WithKeep) holding the decode
// target, the receipt, the SQL argument list and the buffers;
// jsonpool.DecodeReuse into the target, keeping its capacity;
// sqlinterp.Append into the request's packet buffer;
// jsonpool.AppendEncode into a reused buffer written with one Write;
// gzpool.Handler for compression and logfmt.AccessLog outside it, logging
// the bytes sent on the wire.

// kitScratch is everything one request needs.
type kitScratch struct {
	order   Order // the decode target, its Items' capacity kept
	receipt Receipt
	args    []driver.Value
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
		clear(s.args)
		s.args = s.args[:0]
		s.sql, s.out = s.sql[:0], s.out[:0]
		return s
	}),
	pool.WithKeep(func(s *kitScratch) bool {
		return cap(s.sql) <= kitMaxBuf && cap(s.out) <= kitMaxBuf &&
			cap(s.order.Items) <= kitMaxItems && cap(s.receipt.Lines) <= kitMaxItems &&
			cap(s.args) <= kitMaxItems*itemArgs
	}))

func newPoolkit() http.Handler {
	return logfmt.AccessLog(gzpool.Handler(http.HandlerFunc(servePoolkit)), &accessLog)
}

func servePoolkit(w http.ResponseWriter, r *http.Request) {
	s := kitScratches.Get()
	defer kitScratches.Put(s)
	o := &s.order
	err := jsonpool.DecodeReuse(o, http.MaxBytesReader(w, r.Body, maxBody))
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
	s.args = appendOrderArgs(s.args[:0], o, rc)
	if s.sql, err = sqlinterp.Append(s.sql[:0], orderQuery, s.args, sqlinterp.Options{}); err != nil {
		return err
	}
	if err = db.exec(r.Context(), 0, s.sql); err != nil {
		return err
	}
	s.args = appendItemArgs(s.args[:0], o, rc)
	if s.sql, err = sqlinterp.Append(s.sql[:0], itemsQueries[len(o.Items)], s.args, sqlinterp.Options{}); err != nil {
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
