// Package newmismatch tries //poolvet:ignore directives on newmismatch's findings.
package newmismatch

import (
	"sync"
)

type T struct{ n int }
type U struct{ n int }

var p = sync.Pool{New: func() any { return new(T) }}

func f0() {
	_ = p.Get().(*U) // want `\*U`
}

func f1() {
	_ = p.Get().(*U) //poolvet:ignore newmismatch deliberate, for the test
}

func f2() {
	//poolvet:ignore newmismatch on the line above
	_ = p.Get().(*U)
}

func f3() {
	_ = p.Get().(*U) //poolvet:ignore deliberate: no names, so every check
}

func f4() {
	//poolvet:ignore getreset,newmismatch two names
	_ = p.Get().(*U)
}

func f5() {
	_ = p.Get().(*U) //poolvet:ignore newmismatch // want `\*U`
}

func f6() {
	_ = p.Get().(*U) //poolvet:ignore // want `\*U`
}

func f7() {
	_ = p.Get().(*U) //poolvet:ignore poolcopy another check's name // want `\*U`
}
