package sqlinterp

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"reflect"
	"time"
)

// Interpolate returns query with each ? placeholder replaced by the next
// argument as an SQL literal, for a session with the default sql_mode and
// UTC times (the zero Options).
//
// Besides the types Append takes it accepts what database/sql would convert
// for a driver: the other integer and float types, driver.Valuer, and named
// types and pointers of the basic kinds. It allocates the returned string;
// use Append or AppendArgs with a reused buffer on hot paths. It writes
// into a buffer of its own, so no argument can overlap it.
func Interpolate(query string, args ...any) (string, error) {
	vals := make([]driver.Value, len(args))
	for i, a := range args {
		v, err := convert(a)
		if err != nil {
			return "", &ArgError{Index: i, Type: typeName(a), Err: ErrArgType, Detail: err.Error()}
		}
		vals[i] = v
	}
	b, err := Append(nil, query, vals, Options{})
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// convert turns a into a value Append accepts, or fails.
func convert(a any) (driver.Value, error) {
	switch v := a.(type) {
	case nil, int64, uint64, float64, bool, time.Time, string, []byte, json.RawMessage:
		return v, nil
	case int:
		return int64(v), nil
	case int8:
		return int64(v), nil
	case int16:
		return int64(v), nil
	case int32:
		return int64(v), nil
	case uint:
		return uint64(v), nil
	case uint8:
		return uint64(v), nil
	case uint16:
		return uint64(v), nil
	case uint32:
		return uint64(v), nil
	case float32:
		return float64(v), nil
	case driver.Valuer:
		// As database/sql does: a nil pointer whose element type has the
		// Value method is NULL, rather than a call that would panic.
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() &&
			rv.Type().Elem().Implements(reflect.TypeFor[driver.Valuer]()) {
			return nil, nil
		}
		val, err := v.Value()
		if err != nil {
			return nil, err
		}
		switch val.(type) {
		case nil, int64, uint64, float64, bool, time.Time, string, []byte, json.RawMessage:
			return val, nil
		}
		return nil, errors.New("its Value method returned an unsupported type")
	}
	return driver.DefaultParameterConverter.ConvertValue(a)
}
