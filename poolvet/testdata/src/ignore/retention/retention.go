// Package retention tries //poolvet:ignore directives on retention's findings.
package retention

import (
	"bytes"
	"sync"
)

var p = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func f0(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) // want `keeps`
}

func f1(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) //poolvet:ignore retention deliberate, for the test
}

func f2(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	//poolvet:ignore retention on the line above
	p.Put(b)
}

func f3(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) //poolvet:ignore deliberate: no names, so every check
}

func f4(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	//poolvet:ignore getreset,retention two names
	p.Put(b)
}

func f5(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) //poolvet:ignore retention // want `keeps`
}

func f6(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) //poolvet:ignore // want `keeps`
}

func f7(in []byte) {
	b := p.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(in)
	p.Put(b) //poolvet:ignore poolcopy another check's name // want `keeps`
}
