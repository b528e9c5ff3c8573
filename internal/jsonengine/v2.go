//go:build goexperiment.jsonv2

package jsonengine

// V2 reports whether encoding/json runs on the v2 engine (encoding/json/v2
// underneath) in this build. Tests whose exact allocation counts or error
// values differ between the engines say which they expect with it.
const V2 = true
