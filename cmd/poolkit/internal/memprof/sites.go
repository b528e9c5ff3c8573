package memprof

import (
	"sort"
	"strings"
)

// Site is the allocations made under one line of the user's code: the
// first frame, counting outwards from the allocation, that UserCode calls
// the user's. When no frame on a stack is the user's, the site is its
// outermost frame and IsUser is false. Lines of one function whose
// allocations the same advice removes make one site, named by the line
// that allocates most objects.
type Site struct {
	User   Frame
	IsUser bool
	// AllocIn is the function that allocated most of the site's bytes:
	// the innermost frame outside the runtime (compress/flate.NewWriter,
	// strings.genSplit) or, when the user's own line allocates, the runtime
	// operation it calls (runtime.makeslice, runtime.convTslice,
	// runtime.concatstring2, runtime.newobject).
	AllocIn string
	// AlsoIn are the other allocating functions under the same line,
	// most bytes first.
	AlsoIn  []string
	Objects int64
	Bytes   int64
	// Sampled is about how many allocations the runtime recorded for
	// the site: under 10 or so, its figures are little more than a guess.
	Sampled float64
	// InuseObjects and InuseBytes are what of the site's allocations was
	// still in use, as Sample has them.
	InuseObjects, InuseBytes int64
	Advice                   Advice
	// OtherLines are the other lines of the same function and file whose
	// allocations the same advice removes, counted in this site.
	OtherLines []int64
	samples    []Sample
}

// Sites groups the profile's samples by the first user frame of their
// stacks and returns the sites with the most objects first, each with
// advice. src, if not nil, returns a line of a source file (1-based) when
// the file is at hand, so that rules can read the code that allocates.
func (p *Profile) Sites(user UserCode, src func(file string, line int64) (string, bool)) []Site {
	byKey := map[frameID]*Site{}
	allocs := map[frameID]map[nameID]int64{}
	for _, s := range p.Samples {
		if s.Objects <= 0 || len(s.Stack) == 0 {
			continue
		}
		u, ok := userFrame(s.Stack, user)
		uf := s.Stack[len(s.Stack)-1]
		if ok {
			uf = s.Stack[u]
		}
		key := frameIDOf(uf)
		site := byKey[key]
		if site == nil {
			site = &Site{User: uf, IsUser: ok}
			byKey[key] = site
			allocs[key] = map[nameID]int64{}
		}
		site.Objects += s.Objects
		site.Bytes += s.Bytes
		site.Sampled += s.Sampled
		site.InuseObjects += s.InuseObjects
		site.InuseBytes += s.InuseBytes
		site.samples = append(site.samples, s)
		allocs[key][idOf(allocIn(s.Stack, u, ok))] += s.Bytes
	}
	// Functions that both split and concatenate are building a query.
	kindsByFunc := map[nameID]map[rule]bool{}
	for _, site := range byKey {
		for _, s := range site.samples {
			f := classify(s, user, src)
			m := kindsByFunc[idOf(site.User.Func)]
			if m == nil {
				m = map[rule]bool{}
				kindsByFunc[idOf(site.User.Func)] = m
			}
			m[f.rule] = true
		}
	}
	// Lines of one function that the same advice fixes are one site:
	// one fix, so that a hot path of several allocating lines does not
	// crowd others out of the top sites.
	type mergeKey struct {
		fn, file nameID
		advice   string
	}
	merged := map[mergeKey]*Site{}
	mergedAllocs := map[*Site]map[nameID]int64{}
	var out []*Site
	for uf, site := range byKey {
		site.AllocIn, site.AlsoIn = allocatingFuncs(allocs[uf])
		site.Advice = adviseSite(site, user, src, kindsByFunc[idOf(site.User.Func)])
		k := mergeKey{idOf(site.User.Func), idOf(site.User.File), site.Advice.Text}
		m := merged[k]
		if m == nil || !site.IsUser || site.Advice.Package == "" {
			if site.IsUser && site.Advice.Package != "" {
				merged[k] = site
			}
			out = append(out, site)
			mergedAllocs[site] = allocs[uf]
			continue
		}
		if site.Objects > m.Objects || (site.Objects == m.Objects && site.User.Line < m.User.Line) {
			m.OtherLines = append(m.OtherLines, m.User.Line)
			m.User = site.User
		} else {
			m.OtherLines = append(m.OtherLines, site.User.Line)
		}
		m.Objects += site.Objects
		m.Bytes += site.Bytes
		m.Sampled += site.Sampled
		m.InuseObjects += site.InuseObjects
		m.InuseBytes += site.InuseBytes
		m.samples = append(m.samples, site.samples...)
		for fn, n := range allocs[uf] {
			mergedAllocs[m][fn] += n
		}
	}
	sites := make([]Site, 0, len(out))
	for _, site := range out {
		site.AllocIn, site.AlsoIn = allocatingFuncs(mergedAllocs[site])
		if len(site.OtherLines) > 0 {
			// The shares, over the merged lines.
			site.Advice = adviseSite(site, user, src, kindsByFunc[idOf(site.User.Func)])
		}
		site.samples = nil
		sort.Slice(site.OtherLines, func(i, j int) bool { return site.OtherLines[i] < site.OtherLines[j] })
		sites = append(sites, *site)
	}
	sort.Slice(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if a.Objects != b.Objects {
			return a.Objects > b.Objects
		}
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		if a.User.Func != b.User.Func {
			return a.User.Func < b.User.Func
		}
		return a.User.Line < b.User.Line
	})
	return sites
}

// allocatingFuncs returns the function that allocated most bytes and the
// others, most bytes first. sync.Pool's own bookkeeping (the per-P
// arrays it makes again after each GC) comes last: it is not what the
// user's line asked for.
func allocatingFuncs(bytes map[nameID]int64) (string, []string) {
	type fa struct {
		fn   string
		n    int64
		pool bool
	}
	var fns []fa
	for id, n := range bytes {
		fn := id.String()
		fns = append(fns, fa{fn, n, FuncPackage(fn) == "sync"})
	}
	sort.Slice(fns, func(i, j int) bool {
		a, b := fns[i], fns[j]
		if a.pool != b.pool {
			return !a.pool
		}
		if a.n != b.n {
			return a.n > b.n
		}
		return a.fn < b.fn
	})
	var also []string
	for _, f := range fns[1:] {
		also = append(also, f.fn)
	}
	return fns[0].fn, also
}

// userFrame returns the index of the first user frame on stack, innermost
// first.
func userFrame(stack []Frame, user UserCode) (int, bool) {
	for i, f := range stack {
		if !IsRuntime(f.Func) && user.Is(f.Func) {
			return i, true
		}
	}
	return len(stack) - 1, false
}

// allocIn names the allocating function of a stack whose user frame is
// at index u.
func allocIn(stack []Frame, u int, isUser bool) string {
	for i, f := range stack {
		if IsRuntime(f.Func) {
			continue
		}
		if i == u && isUser && i > 0 {
			// The user's own line allocates: name the runtime operation.
			return stack[i-1].Func
		}
		return f.Func
	}
	return stack[len(stack)-1].Func
}

// libFrames returns the frames between the allocator and the user frame,
// outermost (the call the user made) first.
func libFrames(stack []Frame, u int, isUser bool) []Frame {
	end := u
	if !isUser {
		end = len(stack)
	}
	var out []Frame
	for i := end - 1; i >= 0; i-- {
		if !IsRuntime(stack[i].Func) {
			out = append(out, stack[i])
		}
	}
	return out
}

// runtimeOps returns the runtime frames directly under the user frame,
// outermost first: what the user's own line asked the runtime to do.
func runtimeOps(stack []Frame, u int) []string {
	var out []string
	for i := u - 1; i >= 0 && IsRuntime(stack[i].Func); i-- {
		out = append(out, stack[i].Func)
	}
	return out
}

// shortFunc strips the package path from a function name.
func shortFunc(fn string) string {
	return shortFuncs.get(fn, func(fn string) string { return fn[strings.LastIndex(FuncPackage(fn), "/")+1:] })
}

var shortFuncs memo[string]

// Advise returns the advice for samples taken together as one site, as
// Sites gives it for the samples under one line of the user's code: for
// a site grouped otherwise, such as by the function that allocates. The
// site's line, for the rules that read the source, is the user frame of
// the sample with the most bytes.
func Advise(samples []Sample, user UserCode, src func(file string, line int64) (string, bool)) Advice {
	site := &Site{samples: samples}
	var top Sample
	allocs := map[nameID]int64{}
	kinds := map[rule]bool{}
	for _, s := range samples {
		if s.Objects <= 0 || len(s.Stack) == 0 {
			continue
		}
		site.Objects += s.Objects
		site.Bytes += s.Bytes
		site.InuseObjects += s.InuseObjects
		site.InuseBytes += s.InuseBytes
		if s.Bytes > top.Bytes || top.Stack == nil {
			top = s
		}
		u, ok := userFrame(s.Stack, user)
		allocs[idOf(allocIn(s.Stack, u, ok))] += s.Bytes
		kinds[classify(s, user, src).rule] = true
	}
	if top.Stack == nil {
		return Advice{Text: "no rule: no allocation"}
	}
	u, ok := userFrame(top.Stack, user)
	site.User, site.IsUser = top.Stack[u], ok
	site.AllocIn, site.AlsoIn = allocatingFuncs(allocs)
	return adviseSite(site, user, src, kinds)
}
