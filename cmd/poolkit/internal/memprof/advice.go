package memprof

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Advice says which poolkit package or pattern removes a site's
// allocations, or that none does.
type Advice struct {
	Package string // "gzpool", "slicepool or pool", …; "" when no rule fits
	Text    string // one sentence, starting with the package or "no rule"
	// BytesShare and ObjectsShare are the parts of the site's bytes and
	// objects that the finding the advice rests on covers, 0 to 1.
	BytesShare, ObjectsShare float64
	// Retained is set when a package's pattern fits but the site keeps
	// what it allocates (see RetainedShare), so that no pool is named.
	Retained bool
}

// RetainedShare is the part of the bytes a site allocated that must
// still be in use for the site to count as retaining what it allocates
// rather than churning it.
//
// A pool recycles what is dropped after each use. A heap profile says,
// beside what each site allocated, what of it is still in use: as of
// the last GC for a profile of totals, and for a delta profile the
// growth over its span. When at least half of a site's bytes are still
// in use, most of what it allocates is kept (in a cache, a map, a field,
// or by a caller it is returned to) and would never come back to a
// pool, so a pool is not advised there, whatever the pattern. The
// threshold of half is the one the advice's other shares use. A site
// whose objects are kept for a while and then replaced (a cache
// refreshed every few seconds) shows a small share in a profile of a
// long-running process, and is not told apart by this rule.
const RetainedShare = 0.5

// retained returns the part of the site's bytes still in use and
// whether it reaches RetainedShare.
func (s *Site) retained() (float64, bool) {
	if s.Bytes <= 0 || s.InuseBytes <= 0 {
		return 0, false
	}
	share := min(float64(s.InuseBytes)/float64(s.Bytes), 1)
	return share, share >= RetainedShare
}

// Coverage returns the part of the site the advice rests on, as
// " (for 60% of the bytes, 40% of the allocations)", to follow the word
// "advice" in a report; "" when the advice covers the whole site.
func (a Advice) Coverage() string {
	if a.BytesShare >= 0.995 && a.ObjectsShare >= 0.995 {
		return ""
	}
	return fmt.Sprintf(" (for %.0f%% of the bytes, %.0f%% of the allocations)", 100*a.BytesShare, 100*a.ObjectsShare)
}

// rule is a pattern of allocation that poolkit knows how to remove, or a
// known reason why none applies.
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
	ruleMake
	ruleAppend
	// Reasons for no rule.
	rulePoolkit      // inside poolkit itself
	rulePooled       // a miss of a sync.Pool the program already has
	ruleBuilderSized // a strings.Builder sized by Grow: its result
	ruleInside       // inside a library call poolkit does not replace
	ruleLine         // the user's own line, no pattern poolkit removes
	ruleUnknown      // no user frame, or nothing known
)

// finding is what one allocating stack says about its allocation.
type finding struct {
	rule rule
	// lib is the library function the rule matched, or that the
	// allocation happened inside for ruleInside.
	lib string
	// via is the library call the user's line makes, when the rule
	// matched deeper than that call ("" when lib is that call).
	via string
	// in is the dependency function that called lib, when lib is not
	// called by the user's line or through only the standard library's
	// building blocks.
	in string
}

// blockPkgs are the standard library's building blocks: packages whose
// allocations are made for whichever caller uses them. An allocation
// inside one belongs to the nearest caller outside them.
var blockPkgs = map[string]bool{
	"bytes": true, "strings": true, "strconv": true, "unicode/utf8": true, "unicode/utf16": true,
	"slices": true, "maps": true, "sort": true, "reflect": true, "sync": true, "sync/atomic": true,
	"errors": true, "io": true, "bufio": true, "internal/bytealg": true, "internal/sync": true,
	"internal/reflectlite": true, "internal/fmtsort": true, "internal/itoa": true, "iter": true, "unique": true,
}

// isBlock reports whether fn is in a building-block package.
func isBlock(fn string) bool {
	return blockFuncs.get(fn, func(fn string) bool { return blockPkgs[FuncPackage(fn)] })
}

var blockFuncs memo[bool]

// classify reads one allocating stack. From the allocation outwards, the
// first function that is not a building block decides: a compressor's
// constructor wherever it is (a middleware the user can replace makes
// it); encoding/json, fmt, log and time only when the user's line calls
// them, directly or through building blocks; any other library function
// means the allocation is that library's, with no rule. When only
// building blocks lie between the user's line and the allocation, the
// block the line calls decides (a strings.Builder, a bytes.Buffer,
// strings.Split); when none does, the user's own line allocates, and the
// runtime operation or the source line decides.
func classify(s Sample, user UserCode, src func(string, int64) (string, bool)) finding {
	u, isUser := userFrame(s.Stack, user)
	for i, f := range s.Stack {
		switch {
		case strings.HasPrefix(f.Func, "sync.(*Pool).") && poolOwner(s.Stack[i+1:], user):
			// A pool of the program's own: its misses, or its per-P
			// arrays. A library's internal pool (fmt's printers) is
			// part of what the library call costs.
			return finding{rule: rulePooled, lib: f.Func}
		case strings.HasPrefix(FuncPackage(f.Func), "github.com/poolkit/poolkit"):
			return finding{rule: rulePoolkit, lib: f.Func}
		}
	}
	lib := libFrames(s.Stack, u, isUser) // outermost first
	via := ""
	if len(lib) > 0 {
		via = lib[0].Func
	}
	// From the allocation outwards: lib[len(lib)-1] is innermost.
	for i := len(lib) - 1; i >= 0; i-- {
		fn := lib[i].Func
		if isBlock(fn) {
			continue
		}
		r := libraryRule(fn)
		if r == ruleGzipWriter || r == ruleGzipReader {
			if hasFrame(s.Stack, "sync.(*Pool).Get") {
				// A dependency that pools its compressors already
				// (gzhttp, caddy's encoder): these are its misses.
				return finding{rule: rulePooled, lib: "sync.(*Pool).Get"}
			}
			// A compressor's state, whoever makes it: the user can
			// replace the writer or middleware that does.
			f := finding{rule: r, lib: fn, in: outsideFamily(lib[:i], r)}
			if libraryRule(via) != r {
				f.via = via
			}
			return f
		}
		if !isUser {
			return finding{rule: ruleUnknown, lib: fn}
		}
		// Other rules hold for the call the user's line makes, when
		// between it and the allocation there is only the standard
		// library (log.Printf's fmt.Sprintf is the log line's).
		vr := libraryRule(via)
		if vr != ruleNone && onlyStd(lib[:i+1]) {
			f := finding{rule: vr, lib: via}
			if vr == ruleFmt && strings.HasPrefix(shortFunc(via), "fmt.Fprint") && i+1 < len(lib) &&
				blockRule(lib[i+1:]) == ruleBuffer {
				// fmt.Fprintf into a bytes.Buffer that grows: the
				// buffer's allocation.
				f.rule = ruleBuffer
			}
			return f
		}
		f := finding{rule: ruleInside, lib: fn}
		if i > 0 {
			f.via = via
			if dep := innermostDep(lib[:i]); dep != "" && dep != via {
				f.in = dep // the dependency whose code this is
			}
		}
		return f
	}
	if !isUser {
		return finding{rule: ruleUnknown}
	}
	if len(lib) > 0 {
		// Only building blocks: the one the user's line calls decides.
		switch r := blockRule(lib); {
		case r == ruleBuilder && hasFrame(lib, "strings.(*Builder).Grow"):
			return finding{rule: ruleBuilderSized, lib: via}
		case r != ruleNone:
			return finding{rule: r, lib: via}
		}
		return finding{rule: ruleInside, lib: via}
	}
	return finding{rule: lineRule(s, u, src)}
}

// poolOwner reports whether the sync.Pool whose method called the frames
// before outer is the user's: the first frame outside package sync is.
func poolOwner(outer []Frame, user UserCode) bool {
	for _, f := range outer {
		if FuncPackage(f.Func) != "sync" {
			return user.Is(f.Func)
		}
	}
	return false
}

// outsideFamily returns the innermost function of frames (outermost
// first) that is outside the standard library and rule r's own packages:
// the dependency that made the allocation r matched, "" if there is none
// between it and the user's line.
func outsideFamily(frames []Frame, r rule) string {
	for i := len(frames) - 1; i >= 0; i-- {
		if fn := frames[i].Func; !IsStd(FuncPackage(fn)) && libraryRule(fn) != r {
			return fn
		}
	}
	return ""
}

// innermostDep returns the innermost function of frames (outermost
// first) outside the standard library, "" if there is none.
func innermostDep(frames []Frame) string {
	for i := len(frames) - 1; i >= 0; i-- {
		if fn := frames[i].Func; !IsStd(FuncPackage(fn)) {
			return fn
		}
	}
	return ""
}

// onlyStd reports whether every frame is in the standard library.
func onlyStd(frames []Frame) bool {
	for _, f := range frames {
		if !IsStd(FuncPackage(f.Func)) {
			return false
		}
	}
	return true
}

func hasFrame(frames []Frame, fn string) bool {
	for _, f := range frames {
		if f.Func == fn {
			return true
		}
	}
	return false
}

// blockRule matches the building block the outermost of frames is.
func blockRule(frames []Frame) rule {
	fn := frames[0].Func
	pkg := FuncPackage(fn)
	name := strings.TrimPrefix(fn, pkg+".")
	switch pkg {
	case "bytes":
		if strings.HasPrefix(name, "(*Buffer).") || strings.HasPrefix(name, "NewBuffer") || name == "growSlice" {
			return ruleBuffer
		}
	case "strings":
		switch {
		case strings.HasPrefix(name, "(*Builder)."):
			return ruleBuilder
		case strings.HasPrefix(name, "Split") || name == "genSplit" || name == "Fields":
			return ruleSplit
		case name == "Join" || name == "Repeat" || name == "Replace" || name == "ReplaceAll":
			return ruleConcat
		}
	}
	return ruleNone
}

// lineRule reads what the user's own line asks the runtime for: from
// the runtime frame when the profile keeps it, from the source line when
// the file is at hand. Without either it guesses nothing.
func lineRule(s Sample, u int, src func(string, int64) (string, bool)) rule {
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
	}
	return ruleLine
}

// Source patterns of the allocations a user's own line makes.
var (
	putCall    = regexp.MustCompile(`\.Put\(`)                                // a pool's Put
	makeSlice  = regexp.MustCompile(`\bmake\(\[\]`)                           // make([]E, n)
	appendCall = regexp.MustCompile(`\bappend\(`)                             // append growing a slice
	bufferDecl = regexp.MustCompile(`\bbytes\.Buffer\b|\bstrings\.Builder\b`) // a buffer made per call
	concatExpr = regexp.MustCompile(`\+=|\+\s*["'\x60]|["'\x60]\s*\+`)        // string concatenation
)

// libraryRule matches a library function that is not a building block.
func libraryRule(fn string) rule { return libraryRules.get(fn, libraryRuleOf) }

var libraryRules memo[rule]

func libraryRuleOf(fn string) rule {
	pkg := FuncPackage(fn)
	name := strings.TrimPrefix(fn, pkg+".")
	switch {
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
			strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Append") || name == "newPrinter" ||
			strings.HasPrefix(name, "(*pp).") {
			return ruleFmt
		}
	case pkg == "time":
		if name == "Time.Format" || name == "Time.String" || name == "Time.AppendFormat" {
			return ruleTime
		}
	}
	return ruleNone
}

// queryName matches function names and source lines that build SQL.
var (
	queryName = regexp.MustCompile(`(?i)sql|query|interp|stmt|statement`)
	queryText = regexp.MustCompile(`(?i)\b(select|insert|update|delete|where|values)\b`)
)

// queryFunc reports whether a function's name says it builds SQL.
func queryFunc(fn string) bool {
	return queryFuncs.get(fn, func(fn string) bool { return queryName.MatchString(shortFunc(fn)) })
}

var queryFuncs memo[bool]

// minShare is the part of a site's bytes and objects, on average, that a
// finding must cover to name a package for the whole site.
const minShare = 0.5

// adviseSite picks the finding that covers most of a site, by the mean
// of its shares of the site's bytes and objects, and names a package
// only when that finding is a rule that fits and covers at least
// minShare. kinds are the rules seen anywhere in the same user function,
// so that a function that both splits and concatenates is known to build
// a query.
func adviseSite(site *Site, user UserCode, src func(string, int64) (string, bool), kinds map[rule]bool) Advice {
	type weight struct{ objects, bytes int64 }
	byFinding := map[finding]*weight{}
	for _, s := range site.samples {
		f := classify(s, user, src)
		w := byFinding[f]
		if w == nil {
			w = &weight{}
			byFinding[f] = w
		}
		w.objects += s.Objects
		w.bytes += s.Bytes
	}
	share := func(w *weight) (float64, float64) {
		var b, o float64
		if site.Bytes > 0 {
			b = float64(w.bytes) / float64(site.Bytes)
		}
		if site.Objects > 0 {
			o = float64(w.objects) / float64(site.Objects)
		}
		return b, o
	}
	// Findings of the same rule add up (one gzip writer reached through
	// two calls is one fix); the largest finding of it speaks for it.
	ruleW := map[rule]*weight{}
	top := map[rule]finding{}
	for f, w := range byFinding {
		rw := ruleW[f.rule]
		if rw == nil {
			rw = &weight{}
			ruleW[f.rule] = rw
		}
		rw.objects += w.objects
		rw.bytes += w.bytes
		if t, ok := top[f.rule]; !ok || byFinding[t].bytes < w.bytes ||
			(byFinding[t].bytes == w.bytes && findingLess(f, t)) {
			top[f.rule] = f
		}
	}
	rules := make([]rule, 0, len(ruleW))
	for r := range ruleW {
		rules = append(rules, r)
	}
	score := func(r rule) float64 {
		b, o := share(ruleW[r])
		return b + o
	}
	sort.Slice(rules, func(i, j int) bool {
		if si, sj := score(rules[i]), score(rules[j]); si != sj {
			return si > sj
		}
		return rules[i] < rules[j]
	})
	best := rules[0]
	f := top[best]
	b, o := share(ruleW[best])
	query := false
	if best == ruleSplit || best == ruleConcat || best == ruleFmt {
		line := ""
		if src != nil {
			line, _ = src(site.User.File, site.User.Line)
		}
		query = queryFunc(site.User.Func) || queryText.MatchString(line) ||
			(kinds[ruleSplit] && (kinds[ruleConcat] || kinds[ruleBuilder]))
	}
	a := adviceFor(f, query, site)
	a.BytesShare, a.ObjectsShare = b, o
	if share, ok := site.retained(); ok && a.Package != "" {
		return Advice{Text: fmt.Sprintf("no pool: retained, not churned: %.0f%% of the bytes allocated here (%s) are still "+
			"in use, kept by a cache, a map, a field or a caller it is returned to, and would not come back to a pool; "+
			"look at what holds them", 100*share, ruleName(best)), BytesShare: b, ObjectsShare: o, Retained: true}
	}
	if a.Package != "" && (b+o)/2 < minShare {
		a = Advice{Text: fmt.Sprintf("no rule for most of this site: the largest pattern, %s, covers only %.0f%% of its bytes "+
			"and %.0f%% of its objects (%s)", ruleName(best), 100*b, 100*o, a.Text), BytesShare: b, ObjectsShare: o}
	}
	return a
}

// findingLess orders findings of equal weight, so that the choice does
// not depend on map order.
func findingLess(a, b finding) bool {
	if a.lib != b.lib {
		return a.lib < b.lib
	}
	if a.via != b.via {
		return a.via < b.via
	}
	return a.in < b.in
}

// ruleName names a rule's pattern in a few words.
func ruleName(r rule) string {
	switch r {
	case ruleGzipWriter:
		return "a gzip writer made per call"
	case ruleGzipReader:
		return "a gzip reader made per call"
	case ruleJSONEncode:
		return "encoding/json encoding"
	case ruleJSONDecode:
		return "encoding/json decoding"
	case ruleLog:
		return "a log line"
	case ruleFmt:
		return "fmt formatting"
	case ruleTime:
		return "time formatting"
	case ruleBuffer:
		return "a bytes.Buffer growing"
	case ruleBuilder:
		return "a strings.Builder growing"
	case ruleSplit:
		return "strings.Split"
	case ruleConcat:
		return "string concatenation"
	case rulePutBox:
		return "a slice boxed by Put"
	case ruleMake:
		return "a slice made per call"
	case ruleAppend:
		return "append growing a slice"
	}
	return "no pattern"
}

// reached says how the user's line reaches f.lib when it does not call
// it itself.
func reached(f finding) string {
	if f.via == "" || f.via == f.lib {
		return ""
	}
	s := " (reached through " + f.via + ", which your line calls"
	if f.in != "" && f.in != f.via {
		s += ", inside " + f.in
	}
	return s + ")"
}

func adviceFor(f finding, query bool, site *Site) Advice {
	how := reached(f)
	switch f.rule {
	case ruleGzipWriter:
		if f.in != "" {
			return Advice{Package: "gzpool", Text: "gzpool: a gzip/flate writer is made per call inside " + f.in + how +
				"; a dependency makes it, so replace that writer or middleware: httpcompress.Handler compresses responses " +
				"with pooled writers, gzpool.NewWriter returns one"}
		}
		return Advice{Package: "gzpool", Text: "gzpool: a gzip/flate writer is made per call (about 1 MB of state)" + how +
			"; gzpool.AppendCompress, gzpool.NewWriter or the httpcompress.Handler middleware reuse pooled writers"}
	case ruleGzipReader:
		if f.in != "" {
			return Advice{Package: "gzpool", Text: "gzpool: a gzip/flate reader is made per call inside " + f.in + how +
				"; a dependency makes it: where you can replace that reader, gzpool.AppendDecompress or gzpool.NewReader reuse pooled readers"}
		}
		return Advice{Package: "gzpool", Text: "gzpool: a gzip/flate reader is made per call" + how +
			"; gzpool.AppendDecompress or gzpool.NewReader reuse pooled readers"}
	case ruleJSONEncode:
		return Advice{Package: "jsonpool", Text: "jsonpool: encoding/json allocates encode state and a copy of the result per call" + how +
			"; jsonpool.Marshal appends into your dst, jsonpool.Encode writes once with pooled state"}
	case ruleJSONDecode:
		return Advice{Package: "jsonpool", Text: "jsonpool: encoding/json allocates a decoder and its buffer per call" + how +
			"; jsonpool.Decode/Unmarshal decode with pooled state into values from a jsonpool.NewPool, zeroed first"}
	case ruleLog:
		return Advice{Package: "logfmt", Text: "logfmt: a log line formatted per record" + how +
			"; logfmt.Line or logfmt.NewHandler (log/slog) write it with 0 allocations"}
	case ruleFmt:
		if query {
			return Advice{Package: "sqlinterp", Text: "sqlinterp: a query is formatted with fmt.Sprintf per call; " +
				"sqlinterp.Append interpolates ? placeholders into a reused buffer with 0 allocations, escaping the values"}
		}
		return Advice{Package: "logfmt or bytebuf", Text: "logfmt or bytebuf: fmt allocates its result and boxes its arguments" + how +
			"; for a log line use logfmt.Line, otherwise bytebuf's Append* appenders into a pooled buffer"}
	case ruleTime:
		return Advice{Package: "logfmt or bytebuf", Text: "logfmt or bytebuf: time.Format allocates a string per call" + how +
			"; bytebuf's AppendTime (the same RFC 3339 bytes) or logfmt's Line.Time format into a pooled buffer"}
	case ruleBuffer:
		return Advice{Package: "bytebuf", Text: "bytebuf: a bytes.Buffer made or grown per call" + how +
			"; bytebuf.Get returns a pooled buffer that starts at the size calibrated from traffic (bytebuf.Put it back)"}
	case ruleBuilder:
		return Advice{Package: "bytebuf", Text: "bytebuf: a strings.Builder grows from empty per call, one allocation per doubling; " +
			"append into a pooled bytebuf.Buffer and copy the string out once"}
	case ruleSplit, ruleConcat:
		if query {
			return Advice{Package: "sqlinterp", Text: "sqlinterp: a query is built by strings.Split and concatenation per call; " +
				"sqlinterp.Append interpolates ? placeholders into a reused buffer with 0 allocations"}
		}
		if f.rule == ruleSplit {
			return Advice{Text: "no rule: strings.Split makes a new []string per call; strings.Cut or strings.SplitSeq avoid the slice " +
				"(no poolkit package applies)"}
		}
		return Advice{Package: "bytebuf", Text: "bytebuf: each string concatenation makes a new string; " +
			"append the parts into a pooled bytebuf.Buffer"}
	case rulePutBox:
		return Advice{Package: "slicepool or pool", Text: "slicepool or pool.Pool[T]: a slice passed to a pool's Put by value boxes its " +
			"24-byte header in a new allocation on every Put; slicepool keeps slices without boxing, pool.Pool[T] boxes any T in recycled boxes"}
	case ruleMake:
		return Advice{Package: "slicepool", Text: "slicepool: a slice is made per call; " +
			"slicepool.Pool's Get(n) hands out one with room for n and Put takes it back"}
	case ruleAppend:
		return Advice{Package: "slicepool", Text: "slicepool: append grows a slice from empty per call; " +
			"take it from slicepool.Pool's Get(n) with the capacity needed"}
	case rulePoolkit:
		return Advice{Text: "no rule: the allocation is inside poolkit itself (a pool miss or a result the caller keeps)"}
	case rulePooled:
		if f.lib != "sync.(*Pool).Get" {
			return Advice{Text: "no rule: sync.Pool makes its per-P arrays and queues again after every GC; a cost of the pool, not of your code"}
		}
		return Advice{Text: "no rule: already pooled: these are a sync.Pool's misses, its New making a value when the pool " +
			"is empty (the GC empties it); fewer misses need fewer GCs (GOGC, GOMEMLIMIT), not another pool"}
	case ruleBuilderSized:
		return Advice{Text: "no rule: a strings.Builder sized once with Grow: this is the string it returns, " +
			"one allocation a pooled buffer would not save"}
	case ruleInside:
		return Advice{Text: "no rule: allocated inside " + f.lib + how + ", not by a pattern poolkit replaces"}
	case ruleLine:
		if site.IsUser && site.AllocIn == site.User.Func {
			return Advice{Text: "no rule: the line itself allocates (a value moved to the heap, a closure, a conversion); " +
				"go build -gcflags=-m says why"}
		}
	}
	return Advice{Text: "no rule for " + site.AllocIn}
}
