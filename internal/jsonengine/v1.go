//go:build !goexperiment.jsonv2

// Package jsonengine tells which engine runs under encoding/json in this
// build.
//
// Go 1.25 and 1.26 run v1 unless built with GOEXPERIMENT=jsonv2, Go 1.27
// runs v2 unless built with GOEXPERIMENT=nojsonv2.
package jsonengine

// V2 reports whether encoding/json runs on the v2 engine (encoding/json/v2
// underneath) in this build. Tests whose exact allocation counts or error
// values differ between the engines say which they expect with it.
const V2 = false
