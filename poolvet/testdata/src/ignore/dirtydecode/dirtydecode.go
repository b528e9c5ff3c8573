// Package dirtydecode tries //poolvet:ignore directives on dirtydecode's findings.
package dirtydecode

import (
	"encoding/json"
	"sync"
)

type T struct{ N []int }

var p = sync.Pool{New: func() any { return new(T) }}

func f0(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) // want `decod`
	v.N = v.N[:0]
	p.Put(v)
}

func f1(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) //poolvet:ignore dirtydecode deliberate, for the test
	v.N = v.N[:0]
	p.Put(v)
}

func f2(in []byte) {
	v := p.Get().(*T)
	//poolvet:ignore dirtydecode on the line above
	_ = json.Unmarshal(in, v)
	v.N = v.N[:0]
	p.Put(v)
}

func f3(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) //poolvet:ignore deliberate: no names, so every check
	v.N = v.N[:0]
	p.Put(v)
}

func f4(in []byte) {
	v := p.Get().(*T)
	//poolvet:ignore getreset,dirtydecode two names
	_ = json.Unmarshal(in, v)
	v.N = v.N[:0]
	p.Put(v)
}

func f5(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) //poolvet:ignore dirtydecode // want `decod`
	v.N = v.N[:0]
	p.Put(v)
}

func f6(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) //poolvet:ignore // want `decod`
	v.N = v.N[:0]
	p.Put(v)
}

func f7(in []byte) {
	v := p.Get().(*T)
	_ = json.Unmarshal(in, v) //poolvet:ignore poolcopy another check's name // want `decod`
	v.N = v.N[:0]
	p.Put(v)
}
