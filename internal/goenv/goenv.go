// Package goenv asks the go command on PATH where its Go installation is.
//
// runtime.GOROOT's deprecation note says to: the root a binary was built
// with means nothing once the binary is copied to another machine, and a
// test binary built by "go test" finds that go command first on its PATH.
package goenv

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// GOROOT returns the output of "go env GOROOT", asked once per process.
// It fails if there is no go command on PATH or it prints no root.
func GOROOT() (string, error) {
	return goroot()
}

var goroot = sync.OnceValues(func() (string, error) { return goEnv("GOROOT") })

// GOMODCACHE returns the output of "go env GOMODCACHE", asked once per
// process: the directory of the module cache, where the source of every
// module version the go command downloaded lies.
func GOMODCACHE() (string, error) {
	return gomodcache()
}

var gomodcache = sync.OnceValues(func() (string, error) { return goEnv("GOMODCACHE") })

// goEnv returns the output of "go env name", an error if it printed
// nothing.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	v := strings.TrimSpace(string(out))
	if v == "" {
		return "", fmt.Errorf("go env %s printed nothing", name)
	}
	return v, nil
}
