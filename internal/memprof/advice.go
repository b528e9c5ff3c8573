package memprof

import (
	"regexp"
	"strings"
)

// Advice says which poolkit package or pattern removes a site's
// allocations.
type Advice struct {
	Package string // "gzpool", "slicepool or pool", …; "" when no rule matched
	Text    string // one sentence, starting with the package
}

// rule is a pattern of allocation that poolkit knows how to remove.
type rule int

const (
	ruleNone rule = iota
	ruleGzipWriter
	ruleGzipReader
	ruleJSONEncode
	ruleJSONDecode
	ruleLog
	ruleFmt
	ruleTime
	ruleBuffer
	ruleBuilder
	ruleSplit
	ruleConcat
	rulePutBox
	rulePutBoxUnsure
	ruleMake
	ruleAppend
	rulePoolkit
)

// classify matches one allocating stack against the rules. The library
// frames are tried from the call the user's code made inwards, so the
// API the user called decides (fmt.Fprintf into a bytes.Buffer is fmt's
// allocation); when the user's own line allocates, the runtime operation
// under it decides.
func classify(s Sample, user UserCode, src func(string, int64) (string, bool)) rule {
	u, isUser := userFrame(s.Stack, user)
	for _, f := range libFrames(s.Stack, u, isUser) {
		if r := libraryRule(f.Func); r != ruleNone {
			return r
		}
	}
	if !isUser {
		return ruleNone
	}
	uf := s.Stack[u]
	line, haveSrc := "", false
	if src != nil {
		line, haveSrc = src(uf.File, uf.Line)
	}
	size := int64(0)
	if s.Objects > 0 {
		// The runtime scales sampled counts up to estimates, so the
		// average object size is only close to the real one.
		size = (s.Bytes + s.Objects/2) / s.Objects
	}
	ops := runtimeOps(s.Stack, u)
	op := ""
	if len(ops) > 0 {
		op = strings.TrimPrefix(ops[0], "runtime.")
	}
	// runtime/pprof hides the runtime frames at the top of a heap
	// profile's stacks, so when the user's own line allocates, the
	// operation (a make, an append, a concatenation, a value boxed into an
	// interface) is read from the source line when the file is at hand;
	// the runtime frame decides when a profile keeps it.
	boxing := strings.HasPrefix(op, "convT")
	switch {
	case haveSrc && putCall.MatchString(line) && (boxing || size == 24):
		// A 24-byte object at a line that calls Put: a slice header boxed
		// on its way into a sync.Pool.
		return rulePutBox
	case op == "makeslice" || op == "makeslicecopy" || (haveSrc && makeSlice.MatchString(line)):
		return ruleMake
	case op == "growslice" || (haveSrc && appendCall.MatchString(line)):
		return ruleAppend
	case strings.HasPrefix(op, "concatstring") || strings.HasPrefix(op, "concatbyte") ||
		(haveSrc && concatExpr.MatchString(line)):
		return ruleConcat
	case haveSrc && bufferDecl.MatchString(line):
		// A bytes.Buffer or strings.Builder made per call that escapes
		// (var buf bytes.Buffer moved to the heap, new(bytes.Buffer)).
		return ruleBuffer
	case !haveSrc && (op == "convTslice" || (op == "" && size == 24)):
		return rulePutBoxUnsure
	}
	return ruleNone
}

// Source patterns of the allocations a user's own line makes.
var (
	putCall    = regexp.MustCompile(`\.Put\(`)                                // a pool's Put
	makeSlice  = regexp.MustCompile(`\bmake\(\[\]`)                           // make([]E, n)
	appendCall = regexp.MustCompile(`\bappend\(`)                             // append growing a slice
	bufferDecl = regexp.MustCompile(`\bbytes\.Buffer\b|\bstrings\.Builder\b`) // a buffer made per call
	concatExpr = regexp.MustCompile(`\+=|\+\s*["'\x60]|["'\x60]\s*\+`)        // string concatenation
)

// libraryRule matches a library function the user's code called.
func libraryRule(fn string) rule {
	pkg := FuncPackage(fn)
	name := strings.TrimPrefix(fn, pkg+".")
	switch {
	case strings.HasPrefix(pkg, "github.com/poolkit/poolkit"):
		return rulePoolkit
	case pkg == "compress/gzip" || pkg == "compress/flate" || pkg == "compress/zlib" ||
		pkg == "github.com/klauspost/compress/gzip" || pkg == "github.com/klauspost/compress/flate" ||
		pkg == "github.com/klauspost/compress/zlib":
		if strings.Contains(name, "Reader") || strings.Contains(name, "decompressor") || strings.Contains(name, "Resetter") {
			return ruleGzipReader
		}
		return ruleGzipWriter
	case pkg == "encoding/json" || strings.HasPrefix(pkg, "encoding/json/"):
		if strings.Contains(name, "Decode") || strings.Contains(name, "Unmarshal") || strings.Contains(name, "decodeState") ||
			strings.Contains(name, "refill") || strings.Contains(name, "readValue") {
			return ruleJSONDecode
		}
		return ruleJSONEncode
	case pkg == "log" || pkg == "log/slog":
		return ruleLog
	case pkg == "fmt":
		if strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Fprint") ||
			strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Append") {
			return ruleFmt
		}
	case pkg == "time":
		if name == "Time.Format" || name == "Time.String" || name == "Time.AppendFormat" {
			return ruleTime
		}
	case pkg == "bytes":
		if strings.HasPrefix(name, "(*Buffer).") || name == "growSlice" || strings.HasPrefix(name, "NewBuffer") {
			return ruleBuffer
		}
	case pkg == "strings":
		switch {
		case strings.HasPrefix(name, "(*Builder)."):
			return ruleBuilder
		case strings.HasPrefix(name, "Split") || name == "genSplit":
			return ruleSplit
		case name == "Join" || name == "Repeat" || name == "Replace" || name == "ReplaceAll":
			return ruleConcat
		}
	}
	return ruleNone
}

// queryName matches function names and source lines that build SQL.
var (
	queryName = regexp.MustCompile(`(?i)sql|query|interp|stmt|statement`)
	queryText = regexp.MustCompile(`(?i)\b(select|insert|update|delete|where|values)\b`)
)

// adviseSite picks the rule that covers most of a site's objects. kinds
// are the rules seen anywhere in the same user function, so that a
// function that both splits and concatenates is known to build a query.
func adviseSite(site *Site, user UserCode, src func(string, int64) (string, bool), kinds map[rule]bool) Advice {
	weight := map[rule]int64{}
	for _, s := range site.samples {
		if r := classify(s, user, src); r != ruleNone {
			weight[r] += s.Objects
		}
	}
	best, bestN := ruleNone, int64(0)
	for r, n := range weight {
		if n > bestN || (n == bestN && r < best) {
			best, bestN = r, n
		}
	}
	query := false
	if best == ruleSplit || best == ruleConcat || best == ruleFmt {
		line := ""
		if src != nil {
			line, _ = src(site.User.File, site.User.Line)
		}
		query = queryName.MatchString(shortFunc(site.User.Func)) || queryText.MatchString(line) ||
			(kinds[ruleSplit] && (kinds[ruleConcat] || kinds[ruleBuilder]))
	}
	return adviceFor(best, query, site)
}

func adviceFor(r rule, query bool, site *Site) Advice {
	switch r {
	case ruleGzipWriter:
		return Advice{"gzpool", "gzpool: a gzip/flate writer is made per call (about 1 MB of state); " +
			"gzpool.AppendCompress, gzpool.NewWriter or the gzpool.Handler middleware reuse pooled writers"}
	case ruleGzipReader:
		return Advice{"gzpool", "gzpool: a gzip/flate reader is made per call; " +
			"gzpool.AppendDecompress or gzpool.NewReader reuse pooled readers"}
	case ruleJSONEncode:
		return Advice{"jsonpool", "jsonpool: encoding/json allocates encode state and a copy of the result per call; " +
			"jsonpool.Marshal appends into your dst, jsonpool.Encode writes once with pooled state"}
	case ruleJSONDecode:
		return Advice{"jsonpool", "jsonpool: encoding/json allocates a decoder and its buffer per call; " +
			"jsonpool.Decode/Unmarshal decode with pooled state into values from a jsonpool.NewPool, zeroed first"}
	case ruleLog:
		return Advice{"logfmt", "logfmt: a log line formatted per record; " +
			"logfmt.Line or logfmt.NewHandler (log/slog) write it with 0 allocations"}
	case ruleFmt:
		if query {
			return Advice{"sqlinterp", "sqlinterp: a query is formatted with fmt.Sprintf per call; " +
				"sqlinterp.Append interpolates ? placeholders into a reused buffer with 0 allocations, escaping the values"}
		}
		return Advice{"logfmt or bytebuf", "logfmt or bytebuf: fmt.Sprintf allocates its result and boxes its arguments; " +
			"for a log line use logfmt.Line, otherwise bytebuf's Append* appenders into a pooled buffer"}
	case ruleTime:
		return Advice{"logfmt or bytebuf", "logfmt or bytebuf: time.Format allocates a string per call; " +
			"bytebuf's AppendTime (the same RFC 3339 bytes) or logfmt's Line.Time format into a pooled buffer"}
	case ruleBuffer:
		return Advice{"bytebuf", "bytebuf: a bytes.Buffer grows from empty per call; " +
			"bytebuf.Get returns a pooled buffer that starts at the size calibrated from traffic (bytebuf.Put it back)"}
	case ruleBuilder:
		return Advice{"bytebuf", "bytebuf: a strings.Builder grows from empty per call; " +
			"append into a pooled bytebuf.Buffer and copy the string out once"}
	case ruleSplit, ruleConcat:
		if query {
			return Advice{"sqlinterp", "sqlinterp: a query is built by strings.Split and concatenation per call; " +
				"sqlinterp.Append interpolates ? placeholders into a reused buffer with 0 allocations"}
		}
		if r == ruleSplit {
			return Advice{"sqlinterp", "sqlinterp, if this builds a query: strings.Split makes a new []string per call; " +
				"sqlinterp.Append interpolates ? placeholders into a reused buffer (otherwise strings.Cut or strings.SplitSeq avoid the slice)"}
		}
		return Advice{"bytebuf", "bytebuf: each string concatenation makes a new string; " +
			"append the parts into a pooled bytebuf.Buffer"}
	case rulePutBox:
		return Advice{"slicepool or pool", "slicepool or pool.Pool[T]: a slice passed to a pool's Put by value boxes its " +
			"24-byte header in a new allocation on every Put; slicepool keeps slices without boxing, pool.Pool[T] boxes any T in recycled boxes"}
	case rulePutBoxUnsure:
		return Advice{"slicepool or pool", "slicepool or pool.Pool[T], probably: 24-byte objects allocated by your own line are " +
			"what boxing a slice header into an interface costs, as a sync.Pool.Put of a slice does (the source is not at hand to confirm); " +
			"slicepool and pool.Pool[T] do not box"}
	case ruleMake:
		return Advice{"slicepool", "slicepool: a slice is made per call; " +
			"slicepool.Pool's Get(n) hands out one with room for n and Put takes it back"}
	case ruleAppend:
		return Advice{"slicepool", "slicepool: append grows a slice from empty per call; " +
			"take it from slicepool.Pool's Get(n) with the capacity needed"}
	case rulePoolkit:
		return Advice{"", "no rule: the allocation is inside poolkit itself (a pool miss or a result the caller keeps)"}
	}
	if site.AllocIn == "sync.(*Pool).pinSlow" {
		return Advice{"", "no rule: sync.Pool makes its per-P arrays again after every GC; a cost of the pool, not of your code"}
	}
	if site.IsUser && site.AllocIn == site.User.Func {
		return Advice{"", "no rule: the line itself allocates (a value moved to the heap, a closure, a conversion); " +
			"go build -gcflags=-m says why"}
	}
	return Advice{"", "no rule for " + site.AllocIn}
}
