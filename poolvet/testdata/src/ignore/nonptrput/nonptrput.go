// Package nonptrput tries //poolvet:ignore directives on nonptrput's findings.
package nonptrput

import (
	"sync"
)

var p sync.Pool

func f0(b []byte) {
	p.Put(b) // want `allocates on every call`
}

func f1(b []byte) {
	p.Put(b) //poolvet:ignore nonptrput deliberate, for the test
}

func f2(b []byte) {
	//poolvet:ignore nonptrput on the line above
	p.Put(b)
}

func f3(b []byte) {
	p.Put(b) //poolvet:ignore deliberate: no names, so every check
}

func f4(b []byte) {
	//poolvet:ignore getreset,nonptrput two names
	p.Put(b)
}

func f5(b []byte) {
	p.Put(b) //poolvet:ignore nonptrput // want `allocates on every call`
}

func f6(b []byte) {
	p.Put(b) //poolvet:ignore // want `allocates on every call`
}

func f7(b []byte) {
	p.Put(b) //poolvet:ignore poolcopy another check's name // want `allocates on every call`
}
