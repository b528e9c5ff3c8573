package memprof

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// A profile names each function and file once, but its stacks repeat
// them: a name of kilobytes, on the stacks of a hundred thousand samples,
// would be read a hundred thousand times by each rule that looks at it,
// and the work would grow with the name's length times its uses, not with
// the profile. So the rules' answers for long names are remembered by the
// name's identity, its bytes' address and length, which costs the same
// whatever the length; Parse gives equal names one address.

// longName is the length from which a name's answers are remembered:
// shorter names cost less to read again than to look up.
const longName = 64

// maxRemembered bounds what a memo holds: past it, it starts again.
// A profile within Parse's default limit has fewer long names.
const maxRemembered = 1 << 16

// nameKey is a string's identity: the address of its bytes, which keeps
// them from being freed and their address reused while the key is held,
// and its length.
type nameKey struct {
	p *byte
	n int
}

func keyOf(s string) nameKey { return nameKey{unsafe.StringData(s), len(s)} }

// memo remembers a function's answers for long strings.
type memo[V any] struct {
	mu sync.Mutex
	m  map[nameKey]V
}

// nameWork counts the bytes of long names read to compute an answer:
// tests check that it grows with the names, not with their uses.
var nameWork atomic.Int64

// get returns f(s), computed once per long string.
func (c *memo[V]) get(s string, f func(string) V) V {
	if len(s) < longName {
		return f(s)
	}
	k := keyOf(s)
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	nameWork.Add(int64(len(s)))
	v = f(s)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxRemembered {
		c.m = map[nameKey]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// interner gives equal strings one address, so that memo finds them.
type interner map[string]string

func (in interner) intern(s string) string {
	if len(s) < longName {
		return s
	}
	if t, ok := in[s]; ok {
		return t
	}
	in[s] = s
	return s
}

// nameID is a name as a map key that costs the same to hash whatever the
// name's length: a short name by its bytes, a long one by its identity.
// Parse gives equal long names one identity.
type nameID struct {
	short string
	long  nameKey
}

func idOf(s string) nameID {
	if len(s) < longName {
		return nameID{short: s}
	}
	return nameID{long: keyOf(s)}
}

// String returns the name.
func (id nameID) String() string {
	if id.long.p != nil {
		return unsafe.String(id.long.p, id.long.n)
	}
	return id.short
}

// frameID is a frame as a map key, as nameID is a name.
type frameID struct {
	fn, file nameID
	line     int64
}

func frameIDOf(f Frame) frameID { return frameID{idOf(f.Func), idOf(f.File), f.Line} }
