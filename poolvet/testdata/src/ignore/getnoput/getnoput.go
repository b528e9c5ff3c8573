// Package getnoput tries //poolvet:ignore directives on getnoput's findings.
package getnoput

import (
	"sync"
)

type T struct{ n int }

var p = sync.Pool{New: func() any { return new(T) }}

// f drops b on one return path per directive tried: each path is a
// finding of its own.
func f(path int) int {
	b := p.Get().(*T)
	switch path {
	case 0:
		return 0 // want `not put back`
	case 1:
		return 0 //poolvet:ignore getnoput deliberate, for the test
	case 2:
		//poolvet:ignore getnoput on the line above
		return 0
	case 3:
		return 0 //poolvet:ignore deliberate: no names, so every check
	case 4:
		//poolvet:ignore getreset,getnoput two names
		return 0
	case 5:
		return 0 //poolvet:ignore getnoput // want `not put back`
	case 6:
		return 0 //poolvet:ignore // want `not put back`
	case 7:
		return 0 //poolvet:ignore poolcopy another check's name // want `not put back`
	}
	n := b.n
	p.Put(b)
	return n
}
