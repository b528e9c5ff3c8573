package main

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"

	_ "github.com/go-sql-driver/mysql" // the driver behind -dsn
)

// The server process. The driver starts one per variant: this same
// program, re-executed with serveEnv naming the variant and GOMAXPROCS=1.
// It pins itself to the CPU in cpuEnv, listens on a free loopback port,
// prints "addr HOST:PORT", and then answers commands on stdin, one JSON
// line each on stdout, until stdin closes:
//
//	before  the process's counters (serverStats), opening a phase
//	after   the same, closing a phase
//	sql     the last order's two statements
//	profile with profEnv set, write every allocation since the start to
//	        the file it names
const (
	serveEnv = "POOLKIT_SERVICE_SERVE"
	cpuEnv   = "POOLKIT_SERVICE_CPU"
	dsnEnv   = "POOLKIT_SERVICE_DSN"
	profEnv  = "POOLKIT_SERVICE_MEMPROFILE"
)

// serverStats are the server's cumulative counters at one moment.
type serverStats struct {
	CPUNs      int64   `json:"cpu_ns"`      // user + system CPU time, getrusage(RUSAGE_SELF)
	Mallocs    uint64  `json:"mallocs"`     // heap objects allocated, tiny ones included (exact)
	AllocBytes uint64  `json:"alloc_bytes"` // heap bytes allocated
	GCCycles   uint64  `json:"gc_cycles"`   // /gc/cycles/total:gc-cycles
	GCCPU      float64 `json:"gc_cpu_s"`    // /cpu/classes/gc/total:cpu-seconds
	TotalCPU   float64 `json:"total_cpu_s"` // /cpu/classes/total:cpu-seconds (GOMAXPROCS x wall time)
	IdleCPU    float64 `json:"idle_cpu_s"`  // /cpu/classes/idle:cpu-seconds
	LogWrites  int64   `json:"log_writes"`  // access-log lines written
	Pinned     string  `json:"pinned"`      // the CPU the process is pinned to, or why not
}

var metricNames = [...]string{
	"/gc/cycles/total:gc-cycles",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/total:cpu-seconds",
	"/cpu/classes/idle:cpu-seconds",
}

// readStats reads the counters. The runtime's /cpu/classes figures are
// brought up to date only by a GC, so readStats forces one: before reading
// everything when it opens a phase (before is true), after reading the
// counters the phase is measured by when it closes one. Either way the
// forced GC's CPU, allocations and cycle fall outside the phase; only the
// GC CPU class of the closing reading includes that one GC, a millisecond
// against seconds. The driver reads the stats only while no request is in
// flight.
func readStats(before bool, pinned string) serverStats {
	if before {
		runtime.GC()
	}
	var s serverStats
	s.CPUNs = processCPU().Nanoseconds()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms) // flushes every P's cache: exact counts
	s.Mallocs, s.AllocBytes = ms.Mallocs, ms.TotalAlloc
	s.LogWrites = accessLog.writes.Load()
	metrics.Read(samples[:1])
	s.GCCycles = samples[0].Value.Uint64()
	if !before {
		runtime.GC()
	}
	metrics.Read(samples[1:])
	s.GCCPU = samples[1].Value.Float64()
	s.TotalCPU = samples[2].Value.Float64()
	s.IdleCPU = samples[3].Value.Float64()
	s.Pinned = pinned
	return s
}

var samples = func() []metrics.Sample {
	s := make([]metrics.Sample, len(metricNames))
	for i, n := range metricNames {
		s[i].Name = n
	}
	return s
}()

// serve runs the server process of the variant named name.
func serve(name string, stdin io.Reader, stdout io.Writer) error {
	v, ok := lookupVariant(name)
	if !ok {
		return fmt.Errorf("no variant %q", name)
	}
	profile := os.Getenv(profEnv)
	if profile != "" {
		runtime.MemProfileRate = 1 // every allocation, at a cost in speed
	}
	pinned := "not pinned"
	if c := os.Getenv(cpuEnv); c != "" {
		cpu, err := strconv.Atoi(c)
		if err == nil {
			err = pinProcess(cpu)
		}
		if err != nil {
			pinned = "not pinned: " + err.Error()
		} else {
			pinned = "cpu " + c
		}
	}
	if dsn := os.Getenv(dsnEnv); dsn != "" {
		d, err := sql.Open("mysql", dsn)
		if err == nil {
			err = d.Ping()
		}
		if err != nil {
			return fmt.Errorf("-dsn: %w", err)
		}
		db.db = d
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: route(v.handler()), ErrorLog: nil}
	go func() { _ = srv.Serve(ln) }()

	out := bufio.NewWriter(stdout)
	fmt.Fprintf(out, "addr %s\n", ln.Addr())
	if err := out.Flush(); err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	in := bufio.NewScanner(stdin)
	for in.Scan() {
		switch cmd := in.Text(); cmd {
		case "profile":
			err = writeProfile(profile)
			if err == nil {
				err = enc.Encode("ok")
			}
		case "before", "after":
			err = enc.Encode(readStats(cmd == "before", pinned))
		case "sql":
			err = enc.Encode(db.lastSQL())
		default:
			err = enc.Encode(map[string]string{"error": "unknown command " + strconv.Quote(cmd)})
		}
		if err == nil {
			err = out.Flush()
		}
		if err != nil {
			return err
		}
	}
	return in.Err() // stdin closed: the driver is done, or gone
}

// writeProfile writes the allocations profile to name.
func writeProfile(name string) error {
	if name == "" {
		return errors.New("no " + profEnv)
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	runtime.GC() // the profile is as of the last GC
	err = pprof.Lookup("allocs").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// route serves the variant at POST /orders and nothing else.
func route(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/orders" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}
