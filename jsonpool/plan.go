//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/json"
	"reflect"
	"sync"
	"time"
)

// A plan is what jsonpool works out once per Go type so that it need not
// walk the type with reflect on every call: how the fast encode path
// writes a value of the type (encodePlan), how the fast decode path fills
// one (decodePlan), how Clear empties one (clearPlan). Each kind of plan
// lives in a planCache of its own.

// planCache maps a reflect.Type to its plan, a *P, built once per type by
// the build function passed to get. Looking up a type allocates nothing:
// the key, a reflect.Type, holds a pointer, which an interface stores
// without an allocation.
type planCache[P any] struct {
	m sync.Map // reflect.Type to *P
}

// get returns t's plan, building it with build the first time t is asked
// for. Two goroutines asking at once may both build it; both then get the
// plan stored first. A nil *P (a type the plan's path leaves to
// encoding/json) is stored and returned like any other.
func (c *planCache[P]) get(t reflect.Type, build func(reflect.Type) *P) *P {
	if p, ok := c.m.Load(t); ok {
		return p.(*P)
	}
	p, _ := c.m.LoadOrStore(t, build(t))
	return p.(*P)
}

// The types the plans treat by their identity rather than by their kind.
var (
	timeType    = reflect.TypeFor[time.Time]()
	kitTimeType = reflect.TypeFor[Time]()
	numberType  = reflect.TypeFor[json.Number]() // a string encoding/json writes as a number
)
