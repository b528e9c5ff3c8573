package sqlinterp

import (
	"database/sql/driver"
	"time"
)

// ReadLiteral exports the test reader of string literals to the external
// test package.
var ReadLiteral = readLiteral

// CheckParsed exports checkParsed to the external test package.
var CheckParsed = checkParsed

// TypedArgs exports typedArgs to the external test package.
var TypedArgs = typedArgs

// typedArgs fills an Args with vals through its Add methods, one per value
// by its type, for comparing AppendArgs with Append; ok is false when a
// value has no Add method (json.RawMessage, unsupported types).
func typedArgs(vals []driver.Value) (args *Args, ok bool) {
	args = new(Args)
	for _, v := range vals {
		if !addTyped(args, v) {
			return nil, false
		}
	}
	return args, true
}

// addTyped adds v to args through the Add method for its type; it reports
// false, adding nothing, when there is none.
func addTyped(args *Args, v driver.Value) bool {
	switch v := v.(type) {
	case nil:
		args.AddNull()
	case int64:
		args.AddInt64(v)
	case uint64:
		args.AddUint64(v)
	case float64:
		args.AddFloat64(v)
	case bool:
		args.AddBool(v)
	case time.Time:
		args.AddTime(v)
	case string:
		args.AddString(v)
	case []byte:
		args.AddBytes(v)
	default:
		return false
	}
	return true
}
