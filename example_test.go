package poolkit_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/jsonpool"
	"github.com/poolkit/poolkit/logfmt"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/sqlinterp"
)

// This file is the recipe: an HTTP handler that serves a whole request from
// one pooled per-request scratch value. recipe_test.go counts its
// allocations, using this same code.

// order is the request document: POST /orders.
type order struct {
	Customer string `json:"customer"`
	Email    string `json:"email"`
	Items    []item `json:"items"`
}

type item struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

// orderResponse is the response document; its strings are the request's,
// so building it allocates nothing.
type orderResponse struct {
	OrderID  int64          `json:"order_id"`
	Customer string         `json:"customer"`
	Items    []lineResponse `json:"items"`
	Total    float64        `json:"total"`
}

type lineResponse struct {
	SKU    string  `json:"sku"`
	Qty    int     `json:"qty"`
	Amount float64 `json:"amount"`
}

type errorResponse struct {
	Error string `json:"error"`
}

// scratch is everything one request needs, taken from scratchPool when the
// request starts and put back when the handler returns.
//
// Ownership: while the handler runs, the scratch value is the request's
// alone; after Put, the next request overwrites it. So nothing that aliases
// its memory may outlive the handler: body, packet and out are reused byte
// buffers, and req.Items and resp.Items reuse their backing arrays (Clear
// keeps them). Whatever must outlive the request (a query handed to a
// goroutine that logs it later, an item list queued for a worker) must be
// copied first: string(packet), slices.Clone(req.Items). The strings that
// jsonpool decodes (req.Customer, item.SKU, …) are the exception: each is
// a new Go string, which nothing ever writes into, so it may be kept, or
// handed to a goroutine, as it is. That holds for strings made by a copy
// (string(b), strconv), not for ones made without copying from a pooled
// buffer (unsafe.String over body would be overwritten by the next request).
type scratch struct {
	body    []byte         // the request body, read whole
	req     order          // the decode target, cleared with jsonpool.Clear
	args    sqlinterp.Args // the arguments of one statement, unboxed
	packet  []byte         // one MySQL COM_QUERY packet: header, command, query
	resp    orderResponse  // the response value
	errResp errorResponse
	out     []byte // the encoded response
}

// Limits: what one request may use, and what the pool may keep.
const (
	maxBody   = 1 << 20 // larger request bodies get 413
	maxItems  = 1000    // larger orders get 400
	maxPacket = 1 << 20 // the server's max_allowed_packet

	// A pool keeps what its values hold. Without WithKeep, one request of
	// 1 MiB would leave a 1 MiB body buffer (and a packet and a response as
	// large) in the pool, pinned for every later request that needs 1 KiB,
	// and after a burst of such requests every pooled value would hold that
	// much. WithKeep drops a scratch value whose buffers grew past these
	// sizes; the garbage collector takes it, and the pool makes a small
	// one when it needs one.
	keepBytes = 64 << 10
	keepItems = 1024 // 40 KiB of item, 48 KiB of lineResponse
)

var scratchPool = pool.New(
	func() *scratch { return new(scratch) },
	// reset runs in Put, before the pool keeps the value: lengths go to 0,
	// capacities stay, and no reference of this request stays behind (Clear
	// zeroes every string and element up to the capacity, Args.Reset drops
	// the strings it held).
	pool.WithReset(func(s *scratch) *scratch {
		s.body = s.body[:0]
		jsonpool.Clear(&s.req)
		s.args.Reset()
		s.packet = s.packet[:0]
		items := s.resp.Items[:cap(s.resp.Items)]
		clear(items)
		s.resp = orderResponse{Items: items[:0]}
		s.errResp = errorResponse{}
		s.out = s.out[:0]
		return s
	}),
	pool.WithKeep(func(s *scratch) bool {
		return cap(s.body) <= keepBytes && cap(s.packet) <= keepBytes && cap(s.out) <= keepBytes &&
			cap(s.req.Items) <= keepItems && cap(s.resp.Items) <= keepItems
	}),
)

// execFunc sends one MySQL packet to the server and returns the statement's
// last insert id. The packet is the handler's scratch memory: an execFunc
// must not keep it after it returns, nor hand it to another goroutine,
// without copying it.
type execFunc func(packet []byte) (lastInsertID int64, err error)

// orderHandler serves POST /orders.
type orderHandler struct {
	exec execFunc
	opts sqlinterp.Options // must describe the server session
}

// contentTypeJSON is shared by every response: it is only ever read, and
// assigning it allocates nothing where Header().Set allocates a []string.
var contentTypeJSON = []string{"application/json"}

const comQuery = 0x03 // MySQL COM_QUERY

func (h *orderHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := scratchPool.Get()
	defer scratchPool.Put(s) // after this, nothing may touch s or what aliases it

	var err error
	s.body, err = readBody(s.body[:0], r.Body, maxBody)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, errBodyTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		h.fail(w, s, status, "cannot read the request body")
		return
	}
	if err := jsonpool.UnmarshalReuse(&s.req, s.body); err != nil {
		h.fail(w, s, http.StatusBadRequest, "the body is not a valid order")
		return
	}
	if msg := validate(&s.req); msg != "" {
		h.fail(w, s, http.StatusBadRequest, msg)
		return
	}

	// The order row, then its items in one multi-row INSERT, each into the
	// packet buffer as a driver would put a query into its packet buffer.
	s.resp.Customer = s.req.Customer // a string: shared, not copied
	for i := range s.req.Items {
		it := &s.req.Items[i]
		amount := float64(it.Qty) * it.Price
		s.resp.Total += amount
		s.resp.Items = append(s.resp.Items, lineResponse{SKU: it.SKU, Qty: it.Qty, Amount: amount})
	}
	s.args.Reset()
	s.args.AddString(s.req.Customer)
	s.args.AddString(s.req.Email)
	s.args.AddFloat64(s.resp.Total)
	s.packet = startPacket(s.packet)
	s.packet, err = h.appendSQL(s.packet, insertOrder, &s.args)
	if err == nil {
		s.resp.OrderID, err = h.send(s.packet)
	}
	if err == nil {
		s.packet = startPacket(s.packet)
		s.packet = append(s.packet, "INSERT INTO order_items (order_id, sku, qty, price) VALUES "...)
		for i := range s.req.Items {
			it := &s.req.Items[i]
			if i > 0 {
				s.packet = append(s.packet, ", "...)
			}
			// Each row is its own fragment: a fragment with no quotes or
			// comments cannot change how the rest of the query reads.
			s.args.Reset()
			s.args.AddInt64(s.resp.OrderID)
			s.args.AddString(it.SKU)
			s.args.AddInt(it.Qty)
			s.args.AddFloat64(it.Price)
			if s.packet, err = h.appendSQL(s.packet, itemRow, &s.args); err != nil {
				break
			}
		}
		if err == nil {
			_, err = h.send(s.packet)
		}
	}
	if err != nil {
		h.fail(w, s, http.StatusInternalServerError, "cannot store the order")
		return
	}

	// Pairs for the access-log line; the strings are logged as they are,
	// during the request, so they need no copy either way.
	if l := logfmt.AccessLine(w); l != nil {
		l.String("customer", s.req.Customer)
		l.Int("items", int64(len(s.req.Items)))
	}
	h.write(w, s, http.StatusCreated, &s.resp)
}

// readBody appends what r holds to dst, up to max bytes, growing dst at
// most to max+1 bytes however long r is.
func readBody(dst []byte, r io.Reader, max int) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			if len(dst) > max {
				return dst, errBodyTooLarge
			}
			// Double, from 512 bytes, but never past max+1.
			grow := min(2*cap(dst)+512, max+1) - len(dst)
			dst = append(dst, make([]byte, grow)...)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if len(dst) > max {
			return dst, errBodyTooLarge
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

var errBodyTooLarge = errors.New("request body too large")

// validate returns what is wrong with o, or "".
func validate(o *order) string {
	switch {
	case o.Customer == "":
		return "customer is required"
	case !strings.Contains(o.Email, "@"):
		return "email is not an address"
	case len(o.Items) == 0:
		return "an order needs items"
	case len(o.Items) > maxItems:
		return "too many items"
	}
	for i := range o.Items {
		it := &o.Items[i]
		if it.SKU == "" || it.Qty <= 0 || it.Price < 0 || math.IsInf(it.Price, 0) || math.IsNaN(it.Price) {
			return "an item needs a sku, a positive qty and a price"
		}
	}
	return ""
}

// startPacket begins a COM_QUERY packet in buf: 4 header bytes, filled in
// by send, and the command byte.
func startPacket(buf []byte) []byte {
	return append(buf[:0], 0, 0, 0, 0, comQuery)
}

// The handler's statements, parsed once when the program starts, so that
// interpolating one reads only its arguments.
var (
	insertOrder = sqlinterp.MustParse("INSERT INTO orders (customer, email, total, created) VALUES (?, ?, ?, NOW())")
	itemRow     = sqlinterp.MustParse("(?, ?, ?, ?)") // one row of the items' INSERT
)

// appendSQL interpolates one query or fragment into the packet, within
// what is left of maxPacket.
func (h *orderHandler) appendSQL(packet []byte, query *sqlinterp.Query, args *sqlinterp.Args) ([]byte, error) {
	room := maxPacket - (len(packet) - 4)
	if room <= 0 {
		return packet, errors.New("query longer than max_allowed_packet")
	}
	opts := h.opts
	opts.MaxSize = room
	return query.AppendArgs(packet, args, opts)
}

// send fills in the packet's header (payload length, sequence 0) and
// hands it to exec.
func (h *orderHandler) send(packet []byte) (int64, error) {
	n := len(packet) - 4
	packet[0], packet[1], packet[2], packet[3] = byte(n), byte(n>>8), byte(n>>16), 0
	return h.exec(packet)
}

func (h *orderHandler) fail(w http.ResponseWriter, s *scratch, status int, msg string) {
	if l := logfmt.AccessLine(w); l != nil {
		l.String("error", msg)
	}
	s.errResp.Error = msg
	h.write(w, s, status, &s.errResp)
}

// write encodes v into the scratch buffer and writes it with one Write.
func (h *orderHandler) write(w http.ResponseWriter, s *scratch, status int, v any) {
	out, err := jsonpool.AppendEncode(s.out[:0], v)
	if err != nil {
		status = http.StatusInternalServerError
		out = append(s.out[:0], `{"error":"cannot encode the response"}`+"\n"...)
	}
	s.out = out
	w.Header()["Content-Type"] = contentTypeJSON
	w.WriteHeader(status)
	w.Write(out)
}

// Example_handler serves orders from one pooled scratch value per request,
// behind the access log and gzip middleware as a service composes them.
func Example_handler() {
	// A stand-in for the database: it records each query's text. It keeps
	// the text after the request, so it copies it out of the packet, which
	// goes back to the pool with the scratch value.
	var queries []string
	var nextID int64 = 41
	exec := func(packet []byte) (int64, error) {
		q := string(packet[5:]) // string(...) copies
		queries = append(queries, q)
		if !strings.HasPrefix(q, "INSERT INTO orders ") {
			return 0, nil
		}
		nextID++
		return nextID, nil
	}

	var log bytes.Buffer
	srv := logfmt.AccessLog(httpcompress.Handler(&orderHandler{exec: exec}), &log)

	for _, tc := range []struct{ body, accept string }{
		{`{"customer":"ann","email":"ann@example.com","items":[{"sku":"A-1","qty":2,"price":9.5},{"sku":"B-7","qty":1,"price":20}]}`, ""},
		{`{"customer":"bob","items":[{"sku":"A-1","qty":1,"price":9.5}]}`, "gzip"},
		{`{"customer":"O'Hara","email":"oh@example.com","items":` + manyItems(30) + `}`, "gzip"},
	} {
		queries, log = nil, bytes.Buffer{}
		req := httptest.NewRequest("POST", "/orders", strings.NewReader(tc.body))
		if tc.accept != "" {
			req.Header.Set("Accept-Encoding", tc.accept)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)

		body := rec.Body.Bytes()
		if rec.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				panic(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				panic(err)
			}
		}
		fmt.Printf("status: %d, Content-Encoding: %q\n", rec.Code, rec.Header().Get("Content-Encoding"))
		var resp orderResponse
		var errResp errorResponse
		if rec.Code == http.StatusCreated {
			if err := json.Unmarshal(body, &resp); err != nil {
				panic(err)
			}
			fmt.Printf("order %d: %s, %d items, total %g\n", resp.OrderID, resp.Customer, len(resp.Items), resp.Total)
		} else if err := json.Unmarshal(body, &errResp); err == nil {
			fmt.Println("error:", errResp.Error)
		}
		for _, q := range queries {
			if len(q) > 150 {
				q = q[:150] + "…"
			}
			fmt.Println("sql:", q)
		}
		fmt.Println("log:", withoutClock(log.String()))
	}

	// Output:
	// status: 201, Content-Encoding: ""
	// order 42: ann, 2 items, total 39
	// sql: INSERT INTO orders (customer, email, total, created) VALUES ('ann', 'ann@example.com', 39, NOW())
	// sql: INSERT INTO order_items (order_id, sku, qty, price) VALUES (42, 'A-1', 2, 9.5), (42, 'B-7', 1, 20)
	// log: method=POST path=/orders status=201 bytes=122 customer=ann items=2
	// status: 400, Content-Encoding: ""
	// error: email is not an address
	// log: method=POST path=/orders status=400 bytes=36 error="email is not an address"
	// status: 201, Content-Encoding: "gzip"
	// order 43: O'Hara, 30 items, total 167.5
	// sql: INSERT INTO orders (customer, email, total, created) VALUES ('O\'Hara', 'oh@example.com', 167.5, NOW())
	// sql: INSERT INTO order_items (order_id, sku, qty, price) VALUES (43, 'SKU-00', 1, 0.5), (43, 'SKU-01', 2, 1), (43, 'SKU-02', 3, 1.5), (43, 'SKU-03', 4, 2),…
	// log: method=POST path=/orders status=201 bytes=271 customer=O'Hara items=30
}

// manyItems returns a JSON array of n items.
func manyItems(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"sku":"SKU-%02d","qty":%d,"price":%g}`, i, i%5+1, float64(i%7+1)/2)
	}
	b.WriteString("]")
	return b.String()
}

// withoutClock drops the time and duration pairs of an access-log line,
// which change from run to run.
func withoutClock(line string) string {
	var kept []string
	for _, f := range strings.Split(strings.TrimSuffix(line, "\n"), " ") {
		if !strings.HasPrefix(f, "time=") && !strings.HasPrefix(f, "duration=") {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}
