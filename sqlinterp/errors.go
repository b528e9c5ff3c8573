package sqlinterp

import (
	"database/sql/driver"
	"errors"
	"reflect"
	"strconv"
)

// The kinds of argument error, for errors.Is.
var (
	// ErrArgType is the kind of an argument whose Go type has no SQL
	// literal in this package.
	ErrArgType = errors.New("unsupported argument type")
	// ErrArgValue is the kind of an argument of a supported type whose
	// value has no SQL literal: a NaN or infinite float, a time outside
	// the years 1 to 9999.
	ErrArgValue = errors.New("argument value has no SQL literal")
	// ErrOverlap is the kind of an argument whose bytes share memory with
	// dst[len(dst):cap(dst)], which Append overwrites before it would
	// read them.
	ErrOverlap = errors.New("argument shares memory with dst beyond its length, which Append overwrites; pass a copy or another dst")
)

// CountError reports that a query's placeholders and its arguments differ in
// number.
type CountError struct {
	Placeholders int // placeholders in the query, as Append reads it
	Args         int // arguments given
}

func (e *CountError) Error() string {
	return "sqlinterp: query has " + strconv.Itoa(e.Placeholders) + " placeholders but " +
		strconv.Itoa(e.Args) + " arguments were given"
}

// ArgError reports an argument that cannot be written as an SQL literal.
type ArgError struct {
	Index  int    // position of the argument, from 0
	Type   string // its Go type, as %T prints it
	Err    error  // ErrArgType, ErrArgValue or ErrOverlap
	Detail string // what is wrong, when there is more to say than Err
}

func (e *ArgError) Error() string {
	msg := "sqlinterp: argument " + strconv.Itoa(e.Index) + " (" + e.Type + "): "
	switch {
	case e.Detail != "":
		return msg + e.Detail
	case e.Err == ErrArgType:
		return msg + "unsupported type; want nil, int64, uint64, float64, bool, time.Time, []byte, string or json.RawMessage (Interpolate also converts other ints, floats and driver.Valuer)"
	}
	return msg + e.Err.Error()
}

// Unwrap returns the kind of error, ErrArgType, ErrArgValue or ErrOverlap.
func (e *ArgError) Unwrap() error { return e.Err }

// SizeError reports that the interpolated query would exceed Options.MaxSize.
type SizeError struct {
	Max int // the limit, Options.MaxSize
}

func (e *SizeError) Error() string {
	return "sqlinterp: interpolated query exceeds the maximum size of " + strconv.Itoa(e.Max) + " bytes (Options.MaxSize)"
}

// QueryError reports a query whose placeholders cannot be located
// reliably (see "Refused queries" in the package documentation), or that
// shares memory with the dst it would be written to.
type QueryError struct {
	Offset int    // byte offset in the query of the construct at fault
	Reason string // what is wrong there
}

func (e *QueryError) Error() string {
	return "sqlinterp: query byte " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

func typeName(v any) string {
	return reflect.TypeOf(v).String() // v is not nil: nil is a supported argument
}

// overlapError reports that argument i shares memory with dst's spare
// capacity, which Append writes before it would read the argument.
func overlapError(vals []driver.Value, typed []arg, i int) error {
	t := "[]byte"
	if typed != nil {
		if typed[i].kind == kindString {
			t = "string"
		}
	} else {
		t = typeName(vals[i])
	}
	return &ArgError{Index: i, Type: t, Err: ErrOverlap}
}
