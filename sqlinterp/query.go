package sqlinterp

import (
	"slices"
	"strings"

	"github.com/poolkit/poolkit/internal/overlap"
)

// Query is a query whose placeholders Parse has located once, so that
// interpolating it reads only its arguments: a service's queries are
// constants, and finding their ? outside quotes and comments again on every
// call is work done over and over.
//
// A Query is immutable once parsed: it keeps its own copy of the query
// text and is safe for concurrent use by any number of goroutines, so it
// can live in a package-level variable (see MustParse). The zero Query is
// the empty query, with no placeholders.
type Query struct {
	text string
	// plans holds how text splits at its placeholders for each way Options
	// can change how the query reads, indexed by lexMode; modes that read
	// it alike share one slice of segments.
	plans [4]plan
}

// plan is a query split at its placeholders: the text before each, and
// the text after the last, each with the spaces that keep it from
// touching a literal. Its strings share the Query's text, but for those
// that needed a space.
type plan struct {
	segs []string
	tail string
	size int // the bytes of segs and tail
}

// lexMode returns the index in Query.plans of the reading o asks for: the
// fields of Options that change where quoted parts end. Location and
// MaxSize do not change how a query reads.
func lexMode(o *Options) int {
	m := 0
	if o.NoBackslashEscapes {
		m |= 1
	}
	if o.ANSIQuotes {
		m |= 2
	}
	return m
}

// Parse reads query the way AppendArgs does and returns it as a Query,
// whose AppendArgs then gives exactly the bytes and errors AppendArgs
// gives for the same query, arguments and Options, without reading the
// query text again.
//
// How a query reads depends on Options.NoBackslashEscapes and
// Options.ANSIQuotes, which Parse does not take: it reads query in all
// four combinations, so a Query serves sessions in any sql_mode. It
// returns a *QueryError when AppendArgs would refuse query in any of them
// (see "Refused queries" in the package documentation), saying in which:
// a query whose reading is in doubt in some session is refused up front.
//
// Parse copies query; the Query keeps nothing of the caller's.
func Parse(query string) (*Query, error) {
	q := &Query{text: strings.Clone(query)}
	if err := checkNUL(q.text); err != nil {
		return nil, err
	}
	var holesBy [4][]int // placeholder offsets by lexMode
	for m := range q.plans {
		o := Options{NoBackslashEscapes: m&1 != 0, ANSIQuotes: m&2 != 0}
		holes := []int{}
		for i := 0; ; i++ {
			p, err := nextPlaceholder(q.text, i, &o)
			if err != nil {
				if qe, ok := err.(*QueryError); ok && m != 0 {
					qe.Reason += " (" + modeName(m) + ")"
				}
				return nil, err
			}
			if p == len(q.text) {
				break
			}
			holes = append(holes, p)
			i = p
		}
		holesBy[m] = holes
		// Share the segments of a mode that reads the query alike.
		if k := slices.IndexFunc(holesBy[:m], func(h []int) bool { return slices.Equal(h, holes) }); k >= 0 {
			q.plans[m] = q.plans[k]
		} else {
			q.plans[m] = q.split(holes)
		}
	}
	return q, nil
}

// split returns q.text split at the placeholders at the offsets holes,
// each part with the spaces appendQuery writes around it (see
// spaceAround): a substring of q.text when it needs none, a copy
// otherwise.
func (q *Query) split(holes []int) plan {
	segs := make([]string, len(holes))
	last := 0
	for i, p := range holes {
		segs[i] = q.part(last, p, i)
		last = p + 1
	}
	tail := q.part(last, len(q.text), len(holes))
	size := len(tail)
	for _, s := range segs {
		size += len(s)
	}
	return plan{segs: segs, tail: tail, size: size}
}

// part returns q.text[last:p], the part after n placeholders, with the
// spaces spaceAround asks for.
func (q *Query) part(last, p, n int) string {
	s := q.text[last:p]
	before, after := spaceAround(q.text, last, p, n)
	if before != 0 {
		s = " " + s
	}
	if after != 0 {
		s += " "
	}
	return s
}

// modeName names the Options of lexMode m, for Parse's errors.
func modeName(m int) string {
	switch m {
	case 1:
		return "with Options.NoBackslashEscapes"
	case 2:
		return "with Options.ANSIQuotes"
	}
	return "with Options.NoBackslashEscapes and Options.ANSIQuotes"
}

// MustParse is Parse for queries known when the program is written: it
// panics if query cannot be parsed. It suits package-level variables, as
// regexp.MustCompile does:
//
//	var insertOrder = sqlinterp.MustParse("INSERT INTO orders (id, customer) VALUES (?, ?)")
func MustParse(query string) *Query {
	q, err := Parse(query)
	if err != nil {
		panic("sqlinterp.MustParse: " + err.Error())
	}
	return q
}

// String returns the query text q was parsed from.
func (q *Query) String() string { return q.text }

// NumPlaceholders returns the number of placeholders in q as a session
// with opts reads it: what CountPlaceholders returns for its text.
func (q *Query) NumPlaceholders(opts Options) int { return len(q.plans[lexMode(&opts)].segs) }

// AppendArgs is AppendArgs for a parsed query: it appends q to dst with
// each placeholder replaced by the next argument of args as an SQL
// literal, and returns the extended slice. The bytes, the errors (a
// *CountError, *ArgError or *SizeError), the limits of Options.MaxSize and
// the rules on arguments that share memory with dst are those of
// AppendArgs with q's text; only the query itself cannot overlap dst, since
// q holds its own copy. A nil args has no arguments.
//
// AppendArgs only reads q and args, so calls with distinct dst may run
// concurrently on one Query. It allocates only when dst lacks the capacity
// for the result.
func (q *Query) AppendArgs(dst []byte, args *Args, opts Options) ([]byte, error) {
	var list []arg
	if args != nil {
		list = args.list
	}
	return appendParsed(dst, len(q.text), &q.plans[lexMode(&opts)], list, &opts)
}

// appendParsed is appendQuery for typed arguments and a query of size
// bytes split as p says. It checks and writes in the same order as
// appendQuery, so that it fails with the same error, before it writes.
func appendParsed(dst []byte, size int, p *plan, typed []arg, o *Options) ([]byte, error) {
	start := len(dst)
	nargs := len(typed)
	least, estimate, err := checkArgs(overlap.SpareRegion(dst), nil, typed, o)
	if err != nil {
		return dst, err
	}
	if len(p.segs) != nargs {
		return dst, &CountError{Placeholders: len(p.segs), Args: nargs}
	}
	fixed := size - nargs
	if o.MaxSize > 0 && fixed+2*nargs+2*least+mostPerArg*nargs > o.MaxSize {
		least = p.size + literalsLen(nil, typed, o)
		estimate = least
	} else {
		least, estimate = fixed+least, size+estimate
	}
	if dst, err = reserve(dst, start, least, estimate, o); err != nil {
		return dst, err
	}
	for n, seg := range p.segs {
		if o.MaxSize > 0 || cap(dst)-len(dst) < len(seg) {
			if dst, err = roomSlow(dst, start, len(seg), o); err != nil {
				return dst[:start], err
			}
		}
		dst = append(dst, seg...)
		if dst, err = appendLiteral(dst, start, &typed[n], n, o); err != nil {
			return dst[:start], err
		}
	}
	if o.MaxSize > 0 || cap(dst)-len(dst) < len(p.tail) {
		if dst, err = roomSlow(dst, start, len(p.tail), o); err != nil {
			return dst[:start], err
		}
	}
	dst = append(dst, p.tail...)
	if o.MaxSize > 0 && len(dst)-start > o.MaxSize {
		return dst[:start], &SizeError{Max: o.MaxSize}
	}
	return dst, nil
}
