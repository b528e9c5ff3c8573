// Package getreset tries //poolvet:ignore directives on getreset's findings.
package getreset

import (
	"bytes"
	"sync"
)

var p = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func f0() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") // want `reset`
	p.Put(b)
}

func f1() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") //poolvet:ignore getreset deliberate, for the test
	p.Put(b)
}

func f2() {
	b := p.Get().(*bytes.Buffer)
	//poolvet:ignore getreset on the line above
	b.WriteString("x")
	p.Put(b)
}

func f3() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") //poolvet:ignore deliberate: no names, so every check
	p.Put(b)
}

func f4() {
	b := p.Get().(*bytes.Buffer)
	//poolvet:ignore getnoput,getreset two names
	b.WriteString("x")
	p.Put(b)
}

func f5() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") //poolvet:ignore getreset // want `reset`
	p.Put(b)
}

func f6() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") //poolvet:ignore // want `reset`
	p.Put(b)
}

func f7() {
	b := p.Get().(*bytes.Buffer)
	b.WriteString("x") //poolvet:ignore poolcopy another check's name // want `reset`
	p.Put(b)
}
