// Package useafterput tries //poolvet:ignore directives on useafterput's findings.
package useafterput

import (
	"sync"
)

type T struct{ n []int }

var p = sync.Pool{New: func() any { return new(T) }}

func f0() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) // want `used after`
}

func f1() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) //poolvet:ignore useafterput deliberate, for the test
}

func f2() int {
	b := p.Get().(*T)
	p.Put(b)
	//poolvet:ignore useafterput on the line above
	return len(b.n)
}

func f3() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) //poolvet:ignore deliberate: no names, so every check
}

func f4() int {
	b := p.Get().(*T)
	p.Put(b)
	//poolvet:ignore getreset,useafterput two names
	return len(b.n)
}

func f5() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) //poolvet:ignore useafterput // want `used after`
}

func f6() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) //poolvet:ignore // want `used after`
}

func f7() int {
	b := p.Get().(*T)
	p.Put(b)
	return len(b.n) //poolvet:ignore poolcopy another check's name // want `used after`
}
