//go:build goexperiment.jsonv2

package jsonpool_test

const jsonV2Experiment = true
