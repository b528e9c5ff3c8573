// Package bounded holds buffers grown by appends of a bounded size.
package bounded

import (
	"encoding/binary"
	"strconv"
	"sync"
	"unicode/utf8"
)

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 32); return &b }}

// itoa grows its buffer only by the decimal form of one number: at most
// 20 bytes, whatever n is.
func itoa(n int64) string {
	bp := scratch.Get().(*[]byte)
	*bp = strconv.AppendInt((*bp)[:0], n, 10)
	s := string(*bp)
	scratch.Put(bp)
	return s
}

// formatFloat appends once, outside any loop: bounded too.
func formatFloat(f float64, r rune, u uint64) string {
	bp := scratch.Get().(*[]byte)
	*bp = strconv.AppendFloat(*bp, f, 'g', -1, 64)
	*bp = utf8.AppendRune(*bp, r)
	*bp = binary.BigEndian.AppendUint64(*bp, u)
	*bp = binary.AppendUvarint(*bp, u)
	s := string(*bp)
	*bp = (*bp)[:0]
	scratch.Put(bp)
	return s
}

// joinInts appends one number per element of the caller's slice: as
// long as the slice.
func joinInts(xs []int64) string {
	bp := scratch.Get().(*[]byte)
	for i := range xs {
		*bp = strconv.AppendInt(*bp, xs[i], 10)
	}
	s := string(*bp)
	*bp = (*bp)[:0]
	scratch.Put(bp) // want `scratch.Put keeps bp .*strconv.AppendInt of caller data`
	return s
}

// eachInt empties the buffer for each number: bounded, loop or not.
func eachInt(xs []int64, emit func([]byte)) {
	bp := scratch.Get().(*[]byte)
	for i := range xs {
		*bp = strconv.AppendInt((*bp)[:0], xs[i], 10)
		emit(*bp)
	}
	scratch.Put(bp)
}

// quote copies the caller's string: not bounded.
func quote(s string) string {
	bp := scratch.Get().(*[]byte)
	*bp = strconv.AppendQuote((*bp)[:0], s)
	q := string(*bp)
	scratch.Put(bp) // want `scratch.Put keeps bp .*strconv.AppendQuote of caller data`
	return q
}
