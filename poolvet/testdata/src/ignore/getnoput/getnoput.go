// Package getnoput tries //poolvet:ignore directives on getnoput's findings.
package getnoput

import (
	"sync"
)

type T struct{ n int }

var p = sync.Pool{New: func() any { return new(T) }}

func f0(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 // want `not put back`
	}
	n := b.n
	p.Put(b)
	return n
}

func f1(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 //poolvet:ignore getnoput deliberate, for the test
	}
	n := b.n
	p.Put(b)
	return n
}

func f2(fail bool) int {
	b := p.Get().(*T)
	if fail {
		//poolvet:ignore getnoput on the line above
		return 0
	}
	n := b.n
	p.Put(b)
	return n
}

func f3(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 //poolvet:ignore deliberate: no names, so every check
	}
	n := b.n
	p.Put(b)
	return n
}

func f4(fail bool) int {
	b := p.Get().(*T)
	if fail {
		//poolvet:ignore getreset,getnoput two names
		return 0
	}
	n := b.n
	p.Put(b)
	return n
}

func f5(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 //poolvet:ignore getnoput // want `not put back`
	}
	n := b.n
	p.Put(b)
	return n
}

func f6(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 //poolvet:ignore // want `not put back`
	}
	n := b.n
	p.Put(b)
	return n
}

func f7(fail bool) int {
	b := p.Get().(*T)
	if fail {
		return 0 //poolvet:ignore poolcopy another check's name // want `not put back`
	}
	n := b.n
	p.Put(b)
	return n
}
