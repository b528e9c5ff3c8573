package helper

import "sync"

// Put is a generic wrapper: the argument's type is only known at the call site.
func Put[T any](p *sync.Pool, v T) { p.Put(v) } // want Put:`poolcall.Wrapper\(Put\)`

// Shared is a package-level pool reached only through wrappers.
var Shared = sync.Pool{New: func() any { return new([]byte) }}

func GetShared() *[]byte { return Shared.Get().(*[]byte) } // want GetShared:`poolcall.Wrapper\(Get\)`

func PutShared(b *[]byte) { Shared.Put(b) } // want PutShared:`poolcall.Wrapper\(Put\)`
