package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

// variant is one implementation of the endpoint.
type variant struct {
	name string
	doc  string // one line for -h
	// handler builds the handler; it runs only in the server process.
	handler func() http.Handler
	// floor marks a variant whose answers are not checked against the
	// others' (empty's body differs on purpose) and that writes no
	// access-log line.
	floor bool
	// extra marks a variant run only when -variants names it.
	extra bool
}

// variants in the order of the table.
var variants = []variant{
	{name: "empty", floor: true, handler: func() http.Handler { return http.HandlerFunc(serveEmpty) },
		doc: "reads and discards the body, sets Content-Type and writes a fixed 12-byte response: net/http's own cost"},
	{name: "naive", handler: func() http.Handler { return &naive{gz: gzFresh} },
		doc: "json.NewDecoder into a fresh struct, strings.Split/strconv interpolation, json.NewEncoder, gzip.NewWriter per response, slog.TextHandler"},
	{name: "naive+pooledgz", handler: func() http.Handler { return &naive{gz: gzPooled} },
		doc: "naive with a sync.Pool of compress/gzip writers (attribution)"},
	{name: "naive+httpcompress", handler: func() http.Handler { return httpcompress.Handler(&naive{gz: gzNone}) },
		doc: "naive without its own gzip, behind httpcompress.Handler (attribution)"},
	{name: "seed", handler: func() http.Handler { return http.HandlerFunc(serveSeed) },
		doc: "the sync.Pool patterns of the published articles `poolkit bench` measures, bugs fixed: pooled compress/gzip writers and bytes.Buffers, a pooled decode target zeroed first, the methane article's interpolation into a reused buffer"},
	{name: "peers", handler: newPeers,
		doc: "klauspost gzhttp at its defaults (zstd preferred, at SpeedFastest), zerolog, bytebufferpool, a pooled json.Encoder, a sync.Pool per-request struct, the driver's interpolation"},
	{name: "poolkit", handler: newPoolkit,
		doc: "logfmt.AccessLog(httpcompress.Handler(h)); in h a pool.New scratch value per request: jsonpool.UnmarshalReuse, sqlinterp.MustParse + Query.AppendArgs, jsonpool.AppendEncode"},
	{name: "compress-floor", floor: true, extra: true, handler: newCompressFloor,
		doc: "run only when named: writes the receipt encoded in advance for each of the load's orders through httpcompress.Handler, " +
			"with no decoding, SQL, encoding or logging: net/http plus compressing the same receipt, what every compressing variant pays"},
}

func lookupVariant(name string) (variant, bool) {
	for _, v := range variants {
		if v.name == name {
			return v, true
		}
	}
	return variant{}, false
}

// ---- empty ----

// serveEmpty is the floor. It sets its Content-Type, as every variant
// does: the first header a handler sets costs net/http a few allocations
// of its own (the header map's storage, and its copy when the response
// starts), which belong to the floor.
func serveEmpty(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", contentTypeJSON)
	_, _ = w.Write(emptyResponse)
}

// ---- compress-floor ----

// newCompressFloor is the floor of the variants that compress: the receipts of the
// orders the load sends (requestBodies) are encoded once, here, as
// json.Encoder writes them, and each request's body only selects its
// receipt. What a request costs is then net/http's part and compressing
// the same bytes every other variant compresses, at the same level
// (httpcompress.Handler's, as poolkit's). Any other body is answered 422.
func newCompressFloor() http.Handler {
	receipts := map[string][]byte{}
	for _, body := range requestBodies(loadBodies) {
		var o Order
		if err := json.Unmarshal(body, &o); err != nil {
			panic(err) // the load's own orders: a bug here
		}
		var r Receipt
		fillReceipt(&r, &o)
		var b bytes.Buffer
		if err := json.NewEncoder(&b).Encode(&r); err != nil {
			panic(err)
		}
		receipts[string(body)] = b.Bytes()
	}
	bufs := sync.Pool{New: func() any { return new([]byte) }}
	return httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := bufs.Get().(*[]byte)
		defer bufs.Put(p)
		var err error
		*p, err = readBody((*p)[:0], r.Body, maxBody)
		receipt, ok := receipts[string(*p)] // no allocation: a map index by a converted []byte
		if err != nil || !ok {
			http.Error(w, "not one of the load's orders", http.StatusUnprocessableEntity)
			return
		}
		w.Header().Set("Content-Type", contentTypeJSON)
		_, _ = w.Write(receipt)
	}))
}

// ---- naive and its attribution variants ----

type gzMode int

const (
	gzFresh  gzMode = iota // gzip.NewWriter per response
	gzPooled               // a sync.Pool of *gzip.Writer
	gzNone                 // no compression of its own: behind httpcompress.Handler
)

type naive struct{ gz gzMode }

var (
	naiveLog      = slog.New(slog.NewTextHandler(&accessLog, nil))
	naiveGzipPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}
)

func (n *naive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	var o Order
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&o)
	if err == nil {
		err = o.validate()
	}
	if err == nil {
		err = n.serve(rec, r, &o)
	}
	if err != nil {
		rec.status = writeError(rec, err)
	}
	naiveLog.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
		"bytes", rec.n, "dur", time.Since(start), "order", o.ID, "items", len(o.Items))
}

func (n *naive) serve(w http.ResponseWriter, r *http.Request, o *Order) error {
	var rc Receipt
	fillReceipt(&rc, o)
	q, err := sqlbaseline.InterpolateNaive(orderQuery, appendOrderArgs(nil, o, &rc))
	if err == nil {
		err = db.execString(r.Context(), 0, q)
	}
	if err == nil {
		q, err = sqlbaseline.InterpolateNaive(itemsQueries[len(o.Items)], appendItemArgs(nil, o, &rc))
	}
	if err == nil {
		err = db.execString(r.Context(), 1, q)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	if n.gz == gzNone || !acceptsGzip(r) {
		return json.NewEncoder(w).Encode(&rc)
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Add("Vary", "Accept-Encoding")
	var zw *gzip.Writer
	if n.gz == gzFresh {
		zw = gzip.NewWriter(w)
	} else {
		zw = naiveGzipPool.Get().(*gzip.Writer)
		zw.Reset(w)
		defer naiveGzipPool.Put(zw)
	}
	if err := json.NewEncoder(zw).Encode(&rc); err != nil {
		return err
	}
	return zw.Close()
}

// ---- seed ----

// The published articles' pooled patterns, each with its bug fixed: the
// gzip writer and bytes.Buffer pools of ludwig125's sync.Pool article, the
// decode target pooled and zeroed before use (the article decoded into it
// dirty), and the methane article's interpolation into a reused buffer
// (internal/sqlbaseline), here one per
// request from a pool, since a package-level buffer is a data race between
// requests.
var (
	seedGzip    = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}
	seedBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	seedOrders  = sync.Pool{New: func() any { return new(Order) }}
	seedPackets = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
)

func serveSeed(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	o := seedOrders.Get().(*Order)
	*o = Order{} // fixed: the article decoded into the previous request's value
	status, n, err := http.StatusOK, 0, json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(o)
	if err == nil {
		err = o.validate()
	}
	if err == nil {
		n, err = seedServe(w, r, o)
	}
	if err != nil {
		status = writeError(w, err)
	}
	b := seedBuffers.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(appendLogLine(b.AvailableBuffer(), start, r, status, n, o.ID, len(o.Items)))
	_, _ = accessLog.Write(b.Bytes())
	seedBuffers.Put(b)
	seedOrders.Put(o)
}

func seedServe(w http.ResponseWriter, r *http.Request, o *Order) (int, error) {
	var rc Receipt
	fillReceipt(&rc, o)
	p := seedPackets.Get().(*[]byte)
	defer seedPackets.Put(p)
	var err error
	if *p, err = sqlbaseline.AppendSeed((*p)[:0], orderQuery, appendOrderArgs(nil, o, &rc)); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 0, *p); err != nil {
		return 0, err
	}
	if *p, err = sqlbaseline.AppendSeed((*p)[:0], itemsQueries[len(o.Items)], appendItemArgs(nil, o, &rc)); err != nil {
		return 0, err
	}
	if err = db.exec(r.Context(), 1, *p); err != nil {
		return 0, err
	}

	buf := seedBuffers.Get().(*bytes.Buffer)
	defer seedBuffers.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(&rc); err != nil {
		return 0, err
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	if !acceptsGzip(r) {
		return w.Write(buf.Bytes())
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Add("Vary", "Accept-Encoding")
	zw := seedGzip.Get().(*gzip.Writer)
	defer seedGzip.Put(zw)
	zw.Reset(w)
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return 0, err
	}
	return buf.Len(), zw.Close()
}
