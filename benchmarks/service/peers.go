package main

import (
	"database/sql/driver"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/rs/zerolog"
	"github.com/valyala/bytebufferpool"

	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

// peers is what an experienced Go team would build without poolkit:
// klauspost's gzhttp for compression, zerolog for the access log,
// bytebufferpool for buffers, a pooled json.Encoder bound to its own
// buffer, a sync.Pool of per-request state whose decode target is zeroed
// before use, and go-sql-driver/mysql's interpolation (the seed's, which is
// the driver's) into a pooled buffer.

type peersState struct {
	order   Order
	receipt Receipt
	args    []driver.Value
}

type peersEncoder struct {
	buf bytebufferpool.ByteBuffer
	enc *json.Encoder
}

var (
	peersStates   = sync.Pool{New: func() any { return new(peersState) }}
	peersEncoders = sync.Pool{New: func() any {
		e := new(peersEncoder)
		e.enc = json.NewEncoder(&e.buf)
		return e
	}}
	peersLog = zerolog.New(&accessLog).With().Timestamp().Logger()
)

func newPeers() http.Handler { return gzhttp.GzipHandler(http.HandlerFunc(servePeers)) }

func servePeers(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s := peersStates.Get().(*peersState)
	s.order = Order{} // zeroed before decoding: no field of the last request survives
	status, n, err := http.StatusOK, 0, peersDecode(r.Body, &s.order)
	if err == nil {
		err = s.order.validate()
	}
	if err == nil {
		n, err = peersServe(w, r, s)
	}
	if err != nil {
		status = writeError(w, err)
	}
	peersLog.Info().Str("method", r.Method).Str("path", r.URL.Path).Int("status", status).
		Int("bytes", n).Dur("dur", time.Since(start)).Int64("order", s.order.ID).
		Int("items", len(s.order.Items)).Msg("request")
	clear(s.args)
	s.args = s.args[:0]
	clear(s.receipt.Lines)
	clear(s.receipt.Related)
	peersStates.Put(s)
}

// peersDecode reads the body into a pooled buffer, at most maxBody bytes,
// and decodes it.
func peersDecode(body io.Reader, o *Order) error {
	b := bytebufferpool.Get()
	defer bytebufferpool.Put(b)
	if _, err := b.ReadFrom(io.LimitReader(body, maxBody+1)); err != nil {
		return err
	}
	if b.Len() > maxBody {
		return errTooLarge
	}
	return json.Unmarshal(b.B, o)
}

func peersServe(w http.ResponseWriter, r *http.Request, s *peersState) (int, error) {
	o := &s.order
	fillReceipt(&s.receipt, o)
	p := bytebufferpool.Get()
	defer bytebufferpool.Put(p)
	var err error
	s.args = appendOrderArgs(s.args[:0], o, &s.receipt)
	if p.B, err = sqlbaseline.AppendSeed(p.B[:0], orderQuery, s.args); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 0, p.B); err != nil {
		return 0, err
	}
	s.args = appendItemArgs(s.args[:0], o, &s.receipt)
	if p.B, err = sqlbaseline.AppendSeed(p.B[:0], itemsQueries[len(o.Items)], s.args); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 1, p.B); err != nil {
		return 0, err
	}

	e := peersEncoders.Get().(*peersEncoder)
	defer peersEncoders.Put(e)
	e.buf.Reset()
	if err := e.enc.Encode(&s.receipt); err != nil {
		return 0, err
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	return w.Write(e.buf.B)
}
