// Package helperfields holds pooled structs whose fields a helper writes
// after the caller reset some of them.
package helperfields

import "sync"

type ctx struct {
	seen  []int
	names []string
	depth int
}

var cp = sync.Pool{New: func() any { return new(ctx) }}

func enter2(c *ctx, x int) { c.seen = append(c.seen, x) }

func enterBoth(c *ctx, x int, n string) {
	c.seen = append(c.seen, x)
	c.names = append(c.names, n)
}

// resetsItself clears the field it then appends to.
func resetsItself(c *ctx, x int) {
	c.seen = c.seen[:0]
	c.seen = append(c.seen, x)
}

// ---- quiet ----

// The field is reset, then a helper appends to it.
func fieldResetThenHelper() {
	inner := cp.Get().(*ctx)
	inner.seen = inner.seen[:0]
	enter2(inner, 1)
	cp.Put(inner)
}

// Both fields a helper appends to are reset first.
func bothReset() {
	c := cp.Get().(*ctx)
	c.seen = c.seen[:0]
	c.names = c.names[:0]
	enterBoth(c, 1, "a")
	cp.Put(c)
}

// The helper resets what it writes.
func helperResets() {
	c := cp.Get().(*ctx)
	resetsItself(c, 1)
	cp.Put(c)
}

// ---- flagged ----

// Another field is reset, not the one the helper appends to.
func otherFieldReset() {
	c := cp.Get().(*ctx)
	c.names = c.names[:0]
	enter2(c, 1) // want `c.seen from cp \(Get on line 58\) is written before it is reset`
	cp.Put(c)
}

// One of the two fields the helper appends to is not reset.
func oneOfTwo() {
	c := cp.Get().(*ctx)
	c.seen = c.seen[:0]
	enterBoth(c, 1, "a") // want `c.names from cp \(Get on line 66\) is written before it is reset`
	cp.Put(c)
}
