// Package poolcopy tries //poolvet:ignore directives on poolcopy's findings.
package poolcopy

import (
	"sync"
)

type S struct{ p sync.Pool }

var sink S

func f0(s *S) {
	sink = *s // want `copies a sync.Pool`
}

func f1(s *S) {
	sink = *s //poolvet:ignore poolcopy deliberate, for the test
}

func f2(s *S) {
	//poolvet:ignore poolcopy on the line above
	sink = *s
}

func f3(s *S) {
	sink = *s //poolvet:ignore deliberate: no names, so every check
}

func f4(s *S) {
	//poolvet:ignore getreset,poolcopy two names
	sink = *s
}

func f5(s *S) {
	sink = *s //poolvet:ignore poolcopy // want `copies a sync.Pool`
}

func f6(s *S) {
	sink = *s //poolvet:ignore // want `copies a sync.Pool`
}

func f7(s *S) {
	sink = *s //poolvet:ignore getreset another check's name // want `copies a sync.Pool`
}
