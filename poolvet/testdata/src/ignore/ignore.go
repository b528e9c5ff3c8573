package ignore

import "sync"

var p sync.Pool

func f(b []byte, s string) {
	p.Put(b) // want `p.Put of \[\]byte`

	p.Put(b) //poolvet:ignore nonptrput the allocation is what this measures

	//poolvet:ignore getreset,nonptrput on the line above
	p.Put(b)

	p.Put(s) //nolint:staticcheck // SA6002: the trap the article measures

	//lint:ignore SA6002 deliberate
	p.Put(s)

	p.Put(b) //poolvet:ignore poolcopy names another analyzer // want `allocates on every call`

	p.Put(b) //nolint:staticcheck // SA1019 is another check // want `allocates on every call`
}
