package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"compress/gzip"

	"github.com/klauspost/compress/zstd"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// config is what the flags set.
type config struct {
	rounds   int
	phase    time.Duration // each fixed-rate phase; closed-loop phases last half of it
	rates    []float64     // fixed rates in req/s; 0 means a third of naive's closed-loop maximum
	conc     int           // requests in flight in the closed-loop phases
	dsn      string
	profDir  string // write each server's allocation profile there
	variants []string
	pin      bool
	// acceptEncoding is the Accept-Encoding the load and the identity
	// check's compressed requests send.
	acceptEncoding string
	progress       io.Writer // nil: no progress line
	tty            bool      // progress rewrites one line
}

// warmup is how long each phase's load runs before it is measured.
func (c *config) warmup() time.Duration { return min(300*time.Millisecond, c.phase/8) }

// maxPhase is the length of a closed-loop phase: half a fixed-rate phase,
// so that the default run of seven variants fits in five minutes. It
// serves several times as many requests as a fixed-rate phase does.
func (c *config) maxPhase() time.Duration { return c.phase / 2 }

// server is one running server process.
type server struct {
	v   variant
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	url string
	// client is the load generator's, kept for the whole run: the
	// connections it opens stay open from phase to phase, so that a phase
	// rarely pays for connecting (server allocations included).
	client *http.Client
	mu     sync.Mutex
	done   chan error
}

// startServer re-executes this program as the server of variant v.
func startServer(v variant, cpu int, dsn, profDir string) (*server, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serveEnv+"="+v.name, "GOMAXPROCS=1")
	if cpu >= 0 {
		cmd.Env = append(cmd.Env, cpuEnv+"="+strconv.Itoa(cpu))
	}
	if dsn != "" {
		cmd.Env = append(cmd.Env, dsnEnv+"="+dsn)
	}
	if profDir != "" {
		cmd.Env = append(cmd.Env, profEnv+"="+filepath.Join(profDir, v.name+".pprof"))
	}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{v: v, cmd: cmd, in: in, out: bufio.NewReader(outPipe), done: make(chan error, 1)}
	line, err := s.out.ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "addr ")
	if err != nil || !ok {
		s.stop()
		return nil, fmt.Errorf("server %s did not start: read %q, %v", v.name, line, err)
	}
	s.url = "http://" + addr + "/orders"
	s.client = &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 10000}}
	return s, nil
}

// command sends one command and decodes its one-line answer into v.
func (s *server) command(cmd string, v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := io.WriteString(s.in, cmd+"\n"); err != nil {
		return fmt.Errorf("server %s: %w", s.v.name, err)
	}
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("server %s: %q: %w", s.v.name, cmd, err)
	}
	return json.Unmarshal(line, v)
}

// stats reads the server's counters, opening a phase (before) or closing
// one.
func (s *server) stats(before bool) (serverStats, error) {
	var st serverStats
	cmd := "after"
	if before {
		cmd = "before"
	}
	err := s.command(cmd, &st)
	return st, err
}

// stop closes the server's stdin, on which it exits, and waits for it;
// it kills it if it has not gone within two seconds.
func (s *server) stop() {
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	_ = s.in.Close()
	go func() { s.done <- s.cmd.Wait() }()
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// ---- the identity check ----

// response is what the check compares.
type response struct {
	status   int
	ctype    string
	encoding string
	body     []byte // decompressed
}

// post sends body as POST /orders with Accept-Encoding ae, and decodes a
// gzip or zstd response.
func post(client *http.Client, url string, body []byte, ae string) (response, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", contentTypeJSON)
	req.Header.Set("Accept-Encoding", ae)
	res, err := client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, err
	}
	r := response{status: res.StatusCode, ctype: res.Header.Get("Content-Type"),
		encoding: res.Header.Get("Content-Encoding"), body: raw}
	switch r.encoding {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return r, fmt.Errorf("Content-Encoding gzip, but: %w", err)
		}
		if r.body, err = io.ReadAll(zr); err != nil {
			return r, fmt.Errorf("Content-Encoding gzip, but: %w", err)
		}
	case "zstd":
		if r.body, err = zstdDecoder.DecodeAll(raw, nil); err != nil {
			return r, fmt.Errorf("Content-Encoding zstd, but: %w", err)
		}
	}
	return r, nil
}

// zstdDecoder decodes the zstd responses of the identity check:
// klauspost's decoder, with a window as large as RFC 9659 lets an HTTP
// client require.
var zstdDecoder = func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(8<<20))
	if err != nil {
		panic(err)
	}
	return d
}()

// admitsGzip reports whether the Accept-Encoding ae names gzip, q-values
// aside: every variant can gzip, so then each must compress, with gzip or
// zstd. (A header naming zstd alone may be answered uncompressed by the
// variants that do not speak it.)
func admitsGzip(ae string) bool { return strings.Contains(strings.ToLower(ae), "gzip") }

// checkCase is one request of the identity check.
type checkCase struct {
	name   string
	body   []byte
	status int // the status every variant must answer
	sql    bool
}

func checkCases(bodies [][]byte) []checkCase {
	var cs []checkCase
	for i, b := range bodies {
		cs = append(cs, checkCase{name: fmt.Sprintf("order %d (%d bytes)", i, len(b)), body: b, status: 200, sql: true})
	}
	var bad Order
	if err := json.Unmarshal(bodies[0], &bad); err != nil {
		panic(err)
	}
	bad.Items[0].Qty = 0
	invalid, _ := json.Marshal(&bad)
	bad.Items[0].Qty = 1
	bad.Note = strings.Repeat("x", maxBody)
	huge, _ := json.Marshal(&bad)
	return append(cs,
		checkCase{name: "truncated JSON", body: bodies[1][:len(bodies[1])/2], status: 400},
		checkCase{name: "wrong type", body: []byte(`{"id":"7"}`), status: 400},
		checkCase{name: "qty 0", body: invalid, status: 422},
		checkCase{name: "body over 64 KiB", body: huge, status: 413},
	)
}

// checkIdentity sends every check case to every server, with Accept-Encoding
// ae and with identity, and compares the decompressed bodies, statuses, content types and
// SQL text with those of the first variant that is not the floor. It also
// checks that each request wrote one access-log line, and that responses
// were compressed exactly when the client asked for it. It returns the
// mean sizes of the orders and of their uncompressed receipts.
func checkIdentity(servers []*server, bodies [][]byte, ae string) (reqBytes, respBytes int, err error) {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	cases := checkCases(bodies)
	type answer struct {
		res response
		sql [2]string
	}
	var ref []answer
	var refName string
	for _, s := range servers {
		if s.v.floor {
			res, err := post(client, s.url, bodies[0], ae)
			if err == nil && res.status != 200 {
				err = fmt.Errorf("status %d", res.status)
			}
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %w", s.v.name, err)
			}
			continue
		}
		before, err := s.stats(true)
		if err != nil {
			return 0, 0, err
		}
		var got []answer
		for _, c := range cases {
			for _, compressed := range []bool{true, false} {
				accept := "identity"
				if compressed {
					accept = ae
				}
				res, err := post(client, s.url, c.body, accept)
				if err != nil {
					return 0, 0, fmt.Errorf("%s, %s: %w", s.v.name, c.name, err)
				}
				if res.status != c.status {
					return 0, 0, fmt.Errorf("%s, %s: status %d, want %d (%q)", s.v.name, c.name, res.status, c.status, res.body)
				}
				mustCompress := compressed && admitsGzip(ae)
				mayCompress := mustCompress || (compressed && res.encoding == "zstd")
				if got := res.encoding != ""; c.status == 200 && got != mustCompress && !(got && mayCompress) {
					return 0, 0, fmt.Errorf("%s, %s: Content-Encoding %q for Accept-Encoding %q", s.v.name, c.name, res.encoding, accept)
				}
				a := answer{res: res}
				if c.sql {
					if err := s.command("sql", &a.sql); err != nil {
						return 0, 0, err
					}
				}
				got = append(got, a)
			}
		}
		after, err := s.stats(false)
		if err != nil {
			return 0, 0, err
		}
		if n := after.LogWrites - before.LogWrites; n != int64(2*len(cases)) {
			return 0, 0, fmt.Errorf("%s: %d access-log lines for %d requests", s.v.name, n, 2*len(cases))
		}
		if ref == nil {
			ref, refName = got, s.v.name
			continue
		}
		for i, a := range got {
			c, r := cases[i/2], ref[i]
			what := fmt.Sprintf("%s and %s differ on %s (compression accepted: %v)", refName, s.v.name, c.name, i%2 == 0)
			switch {
			case a.res.ctype != r.res.ctype:
				return 0, 0, fmt.Errorf("%s: Content-Type %q, %q", what, r.res.ctype, a.res.ctype)
			case !bytes.Equal(a.res.body, r.res.body):
				return 0, 0, fmt.Errorf("%s: the bodies first differ at byte %d:\n%s\n%s", what,
					firstDiff(r.res.body, a.res.body), excerpt(r.res.body, a.res.body), excerpt(a.res.body, r.res.body))
			case a.sql != r.sql:
				return 0, 0, fmt.Errorf("%s: the SQL differs:\n%q\n%q", what, r.sql, a.sql)
			}
		}
	}
	for _, b := range bodies {
		reqBytes += len(b)
	}
	if ref != nil {
		for i := range bodies {
			respBytes += len(ref[2*i].res.body)
		}
	}
	return reqBytes / len(bodies), respBytes / len(bodies), nil
}

// requestStrings is the mean number of non-empty strings in the orders:
// the allocations that decoding them with encoding/json's semantics
// cannot avoid.
func requestStrings(bodies [][]byte) float64 {
	n := 0
	for _, b := range bodies {
		var o Order
		if err := json.Unmarshal(b, &o); err != nil {
			panic(err)
		}
		for _, s := range []string{o.Email, o.Name, o.Currency, o.Coupon, o.Note,
			o.Shipping.Street, o.Shipping.City, o.Shipping.Zip, o.Shipping.Country} {
			if s != "" {
				n++
			}
		}
		for _, it := range o.Items {
			if it.SKU != "" {
				n++
			}
			if it.Name != "" {
				n++
			}
		}
	}
	return float64(n) / float64(len(bodies))
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func excerpt(a, b []byte) string {
	i := firstDiff(a, b)
	lo, hi := max(0, i-40), min(len(a), i+40)
	return strconv.Quote(string(a[lo:hi]))
}

// ---- phases ----

// serverCost is what the server spent per request: in one phase
// (phaseResult), or as the median of the rounds at one rate
// (rateFigures). JSON shows its fields in place of the embedding.
type serverCost struct {
	CPUus      float64 `json:"cpu_us_per_req"`
	Allocs     float64 `json:"allocs_per_req"`
	Bytes      float64 `json:"bytes_per_req"`
	GCPer10k   float64 `json:"gc_cycles_per_10k"`
	GCFraction float64 `json:"gc_cpu_fraction"`
	GCShare    float64 `json:"gc_cpu_share"`
}

// phaseResult is what one measured phase of one variant gives.
type phaseResult struct {
	Rate     float64 `json:"rate"` // target req/s; 0 in a closed-loop phase
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	RPS      float64 `json:"rps"` // successful requests per second achieved
	serverCost
	LogPerReq  float64   `json:"log_lines_per_req"`
	RespBytes  float64   `json:"resp_bytes"` // mean response body on the wire
	P50, P90   float64   `json:"-"`
	P99, P999  float64   `json:"-"`
	Latencies  []float64 `json:"latency_ms"` // p50, p90, p99, p99.9
	FirstError string    `json:"first_error,omitempty"`
}

// attack runs load against s for d: at rate req/s, or closed-loop with
// conc requests in flight when rate is 0. It collects the latencies of
// the successful requests.
func attack(ctx context.Context, client *http.Client, s *server, targeter vegeta.Targeter, rate float64, conc int, d time.Duration) (lat []time.Duration, errs int, firstErr string, in uint64, span time.Duration) {
	opts := []func(*vegeta.Attacker){vegeta.Client(client), vegeta.KeepAlive(true)}
	pacer := vegeta.ConstantPacer{Freq: int(rate + 0.5), Per: time.Second}
	if rate == 0 {
		pacer = vegeta.ConstantPacer{} // as fast as the workers go
		opts = append(opts, vegeta.Workers(uint64(conc)), vegeta.MaxWorkers(uint64(conc)))
	}
	a := vegeta.NewAttacker(opts...)
	stop := context.AfterFunc(ctx, func() { a.Stop() })
	defer stop()
	var first, last time.Time
	for res := range a.Attack(targeter, pacer, d, s.v.name) {
		if res.Code != http.StatusOK || res.Error != "" {
			errs++
			if firstErr == "" {
				firstErr = fmt.Sprintf("status %d %s", res.Code, res.Error)
			}
			continue
		}
		lat = append(lat, res.Latency)
		in += res.BytesIn
		if first.IsZero() || res.Timestamp.Before(first) {
			first = res.Timestamp
		}
		if end := res.Timestamp.Add(res.Latency); end.After(last) {
			last = end
		}
	}
	return lat, errs, firstErr, in, last.Sub(first)
}

// measure runs one phase: a warm-up, then the measured load between two
// readings of the server's counters.
func measure(ctx context.Context, cfg *config, s *server, targeter vegeta.Targeter, rate float64) (phaseResult, error) {
	client := s.client
	d := cfg.phase
	if rate == 0 {
		d = cfg.maxPhase()
	}
	attack(ctx, client, s, targeter, rate, cfg.conc, cfg.warmup())
	before, err := s.stats(true)
	if err != nil {
		return phaseResult{}, err
	}
	lat, errs, firstErr, in, span := attack(ctx, client, s, targeter, rate, cfg.conc, d)
	after, err := s.stats(false)
	if err != nil {
		return phaseResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return phaseResult{}, err
	}
	n := len(lat)
	r := phaseResult{Rate: rate, Requests: n, Errors: errs, FirstError: firstErr, Seconds: span.Seconds()}
	if n == 0 {
		return r, fmt.Errorf("%s: no successful request (%d errors, first: %s)", s.v.name, errs, firstErr)
	}
	total := float64(n + errs)
	r.RPS = float64(n) / span.Seconds()
	r.CPUus = float64(after.CPUNs-before.CPUNs) / 1e3 / total
	r.Allocs = float64(after.Mallocs-before.Mallocs) / total
	r.Bytes = float64(after.AllocBytes-before.AllocBytes) / total
	r.GCPer10k = float64(after.GCCycles-before.GCCycles) * 1e4 / total
	if dt := after.TotalCPU - before.TotalCPU; dt > 0 {
		r.GCFraction = (after.GCCPU - before.GCCPU) / dt
		if busy := dt - (after.IdleCPU - before.IdleCPU); busy > 0 {
			r.GCShare = (after.GCCPU - before.GCCPU) / busy
		}
	}
	r.LogPerReq = float64(after.LogWrites-before.LogWrites) / total
	r.RespBytes = float64(in) / float64(n)
	slices.Sort(lat)
	q := func(p float64) float64 {
		i := int(p*float64(n)+0.5) - 1
		return float64(lat[min(max(i, 0), n-1)]) / 1e6
	}
	r.P50, r.P90, r.P99, r.P999 = q(0.5), q(0.9), q(0.99), q(0.999)
	r.Latencies = []float64{r.P50, r.P90, r.P99, r.P999}
	return r, nil
}

// targeter sends the bodies round-robin, each as POST /orders with the
// Accept-Encoding ae. It is safe for concurrent use, as vegeta needs.
func targeter(url string, bodies [][]byte, ae string) vegeta.Targeter {
	var mu sync.Mutex
	i := 0
	hdr := http.Header{"Content-Type": {contentTypeJSON}, "Accept-Encoding": {ae}}
	return func(t *vegeta.Target) error {
		mu.Lock()
		b := bodies[i%len(bodies)]
		i++
		mu.Unlock()
		*t = vegeta.Target{Method: http.MethodPost, URL: url, Body: b, Header: hdr}
		return nil
	}
}

// run starts the servers, checks them, and measures every round.
func run(ctx context.Context, cfg *config) (*report, error) {
	var selected []variant
	for _, name := range cfg.variants {
		v, ok := lookupVariant(name)
		if !ok {
			return nil, fmt.Errorf("no variant %q (have %s)", name, variantNames())
		}
		selected = append(selected, v)
	}
	rep := &report{
		GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Rounds: cfg.rounds,
		PhaseSeconds: cfg.phase.Seconds(), MaxPhaseSeconds: cfg.maxPhase().Seconds(),
		Concurrency: cfg.conc, Variants: map[string]*variantReport{}, order: cfg.variants,
		AcceptEncoding: cfg.acceptEncoding,
	}

	// Pinning: the servers on the first CPU allowed, the load on the second.
	serverCPU := -1
	rep.Pinning = "not pinned (-pin=false)"
	if cfg.pin {
		cpus, err := allowedCPUs()
		switch {
		case err != nil:
			rep.Pinning = "not pinned: " + err.Error()
		case len(cpus) < 2:
			rep.Pinning = fmt.Sprintf("not pinned: %d CPU allowed", len(cpus))
		default:
			if err := pinProcess(cpus[1]); err != nil {
				rep.Pinning = "not pinned: " + err.Error()
				break
			}
			defer unpinProcess(cpus)
			prev := runtime.GOMAXPROCS(1)
			defer runtime.GOMAXPROCS(prev)
			serverCPU = cpus[0]
			rep.Pinning = fmt.Sprintf("servers on CPU %d, load generator on CPU %d", cpus[0], cpus[1])
		}
	}

	dsn, err := prepareDB(cfg.dsn)
	if err != nil {
		return nil, err
	}
	rep.DB = cfg.dsn != ""

	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	for _, v := range selected {
		s, err := startServer(v, serverCPU, dsn, cfg.profDir)
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	if serverCPU >= 0 {
		for _, s := range servers {
			st, err := s.stats(false)
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(st.Pinned, "cpu ") {
				rep.Pinning = fmt.Sprintf("server %s %s; load generator on CPU %d", s.v.name, st.Pinned, serverCPU)
			}
		}
	}

	bodies := requestBodies(loadBodies)
	rep.RequestBytes, rep.ResponseBytes, err = checkIdentity(servers, bodies, cfg.acceptEncoding)
	if err != nil {
		return rep, fmt.Errorf("refusing to measure: %w", err)
	}
	rep.BodiesIdentical = true
	rep.RequestStrings = requestStrings(bodies)

	rates := slices.Clone(cfg.rates)
	totalPhases := cfg.rounds * len(servers) * (1 + len(rates))
	maxPlan, fixedPlan := cfg.warmup()+cfg.maxPhase(), cfg.warmup()+cfg.phase
	prog := progress{w: cfg.progress, tty: cfg.tty, total: totalPhases, start: time.Now(),
		planned: time.Duration(cfg.rounds*len(servers)) * (maxPlan + time.Duration(len(rates))*fixedPlan)}
	defer prog.end()

	results := map[string]*variantRuns{}
	for _, s := range servers {
		results[s.v.name] = &variantRuns{fixed: make([][]phaseResult, len(rates))}
	}
	for round := range cfg.rounds {
		// Rotate the order each round, so that no variant always runs
		// first or last.
		order := slices.Clone(servers)
		k := round % len(order)
		order = append(order[k:], order[:k]...)
		for _, s := range order {
			prog.show(round, "closed loop", s.v.name, maxPlan)
			r, err := measure(ctx, cfg, s, targeter(s.url, bodies, cfg.acceptEncoding), 0)
			if err != nil {
				return rep, err
			}
			results[s.v.name].max = append(results[s.v.name].max, r)
		}
		for i := range rates {
			if rates[i] == 0 {
				rates[i] = autoRate(results)
			}
			for _, s := range order {
				prog.show(round, fmt.Sprintf("%.0f req/s", rates[i]), s.v.name, fixedPlan)
				r, err := measure(ctx, cfg, s, targeter(s.url, bodies, cfg.acceptEncoding), rates[i])
				if err != nil {
					return rep, err
				}
				results[s.v.name].fixed[i] = append(results[s.v.name].fixed[i], r)
			}
		}
	}
	if cfg.profDir != "" {
		for _, s := range servers {
			var ok string
			if err := s.command("profile", &ok); err != nil {
				return rep, fmt.Errorf("%s: -memprofile: %w", s.v.name, err)
			}
		}
	}
	rep.Rates = rates
	rep.FixedRate = rates[0]
	rep.summarize(results)
	return rep, nil
}

// autoRate is a third of naive's closed-loop maximum in the first round,
// rounded to two significant digits; without naive, a third of the
// slowest variant's.
func autoRate(results map[string]*variantRuns) float64 {
	m := 0.0
	if r, ok := results["naive"]; ok && len(r.max) > 0 {
		m = r.max[0].RPS
	} else {
		for _, r := range results {
			if len(r.max) > 0 && (m == 0 || r.max[0].RPS < m) {
				m = r.max[0].RPS
			}
		}
	}
	return roundSig(max(m/3, 10), 2)
}

// defaultVariants names the variants a run without -variants runs: all
// but the extra ones.
func defaultVariants() []string {
	var names []string
	for _, v := range variants {
		if !v.extra {
			names = append(names, v.name)
		}
	}
	return names
}

func variantNames() string {
	var names []string
	for _, v := range variants {
		if v.extra {
			names = append(names, v.name+" (only when named)")
		} else {
			names = append(names, v.name)
		}
	}
	return strings.Join(names, ", ")
}

// progress prints where the run is, on one line when stderr is a terminal.
// The time left is the phases' planned time still to run, scaled by how
// long the planned time so far actually took.
type progress struct {
	w            io.Writer
	tty          bool
	total, done  int
	planned, ran time.Duration // planned time of all phases, of those done
	start        time.Time
}

func (p *progress) show(round int, phase, variant string, planned time.Duration) {
	if p.w == nil {
		return
	}
	elapsed := time.Since(p.start)
	left := p.planned - p.ran
	if p.ran > 0 {
		left = time.Duration(float64(left) * float64(elapsed) / float64(p.ran))
	}
	p.done++
	p.ran += planned
	line := fmt.Sprintf("round %d, %-12s %-15s phase %d/%d, %s elapsed, about %s left",
		round+1, phase, variant, p.done, p.total, elapsed.Round(time.Second), left.Round(time.Second))
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) end() {
	if p.w != nil && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
