//go:build !poolkit_nounsafe

package jsonpool

import (
	"time"
	"unsafe"
)

// timeEncoder and kitTimeEncoder write a time.Time and a Time as
// time.Time's MarshalJSON does (see appendTimeJSON).
func timeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTimeJSON(b, *(*time.Time)(p))
}

func kitTimeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTimeJSON(b, (*Time)(p).Time)
}
