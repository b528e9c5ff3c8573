package sqlinterp

import (
	"math"
	"time"
)

// Args is an argument list for AppendArgs that stores each value by type,
// unboxed. Filling a []driver.Value boxes every int64 above 255, every
// float64 and every non-empty string into an interface, one allocation
// each; filling an Args allocates nothing once its backing array has
// grown to the number of arguments, so AppendArgs into a reused dst makes a
// query with 0 allocations.
//
// Keep one Args with the dst buffer (per connection, or in a pooled
// per-request scratch value), and for each query call Reset, then one Add
// method per placeholder, in the query's order:
//
//	args.Reset()
//	args.AddInt64(order.ID)
//	args.AddString(order.Customer)
//	args.AddFloat64(order.Total)
//	buf, err = sqlinterp.AppendArgs(buf[:0], "INSERT INTO orders VALUES (?, ?, ?)", &args, opts)
//
// Each Add method writes its value exactly as Append writes the matching
// driver.Value (see the package documentation), through the same code.
//
// Args keeps the strings and byte slices it is given, without copying,
// until Reset, which drops them so that an Args kept in a pool pins
// nothing; a []byte must not be changed between its Add and AppendArgs.
// The zero value is an empty list. An Args is not safe for concurrent use;
// AppendArgs only reads it. Do not copy an Args that has been used: the
// copy shares its backing array, and an Add to either overwrites the
// other's arguments; pass a pointer.
type Args struct {
	list []arg
}

// Reset empties a, keeping its capacity, and drops the references it held.
func (a *Args) Reset() {
	clear(a.list)
	a.list = a.list[:0]
}

// add appends an argument of kind k, its value zero, and returns it for
// the caller to set the value: filling it in place costs less than
// copying a whole arg into the list. The slot past len(a.list) is zero
// already: a.list[len(a.list):cap(a.list)] always is, since growing zeroes
// it and Reset clears every argument it drops (TestArgsSpareZero).
func (a *Args) add(k kind) *arg {
	n := len(a.list)
	if n < cap(a.list) {
		a.list = a.list[:n+1]
	} else {
		a.list = append(a.list, arg{})
	}
	p := &a.list[n]
	p.kind = k
	return p
}

// Len returns the number of arguments in a.
func (a *Args) Len() int { return len(a.list) }

// AddNull adds NULL.
func (a *Args) AddNull() { a.add(kindNull) }

// AddInt64 adds v, written in decimal digits.
func (a *Args) AddInt64(v int64) { a.add(kindInt).n = uint64(v) }

// AddInt adds v, written in decimal digits.
func (a *Args) AddInt(v int) { a.AddInt64(int64(v)) }

// AddUint64 adds v, written in decimal digits.
func (a *Args) AddUint64(v uint64) { a.add(kindUint).n = v }

// AddFloat64 adds v, written in its shortest form that reads back as the
// same float. A NaN or an infinity has no literal: AppendArgs fails with an
// *ArgError.
func (a *Args) AddFloat64(v float64) {
	a.add(kindFloat).n = math.Float64bits(v)
}

// AddBool adds v, written 1 or 0.
func (a *Args) AddBool(v bool) {
	var n uint64
	if v {
		n = 1
	}
	a.add(kindBool).n = n
}

// AddString adds v, written '…' with its special bytes escaped.
func (a *Args) AddString(v string) { a.add(kindString).s = v }

// AddBytes adds v, written _binary'…'; a nil v is NULL. Args keeps v until
// Reset without copying it.
func (a *Args) AddBytes(v []byte) {
	if v == nil {
		a.AddNull()
		return
	}
	a.add(kindBytes).b = v
}

// AddTime adds v, written 'YYYY-MM-DD HH:MM:SS[.ffffff]' in
// Options.Location; the zero time is '0000-00-00'. A time whose year there
// is outside 1 to 9999 has no literal: AppendArgs fails with an *ArgError.
func (a *Args) AddTime(v time.Time) { a.add(kindTime).t = v }

// AppendArgs is Append with arguments given as an Args rather than a
// []driver.Value: it appends query to dst with each ? placeholder replaced
// by the next argument of args as an SQL literal. The query is read, the
// literals are written, and the errors, limits and overlap rules are those
// of Append, through the same code; a nil args has no arguments.
//
// AppendArgs allocates only when dst lacks the capacity for the result.
// It reads the query for placeholders on every call; for a query known in
// advance, Parse reads it once and Query.AppendArgs does the rest.
func AppendArgs(dst []byte, query string, args *Args, opts Options) ([]byte, error) {
	var list []arg
	if args != nil {
		list = args.list
	}
	if list == nil {
		list = []arg{}
	}
	return appendQuery(dst, query, nil, list, &opts)
}
