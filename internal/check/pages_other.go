//go:build !linux

package check

import "errors"

// Other systems get no mappings: Alloc falls back to heap memory, which
// Seal poisons and Open checks.
func mapPages(size int) ([]byte, error) { return nil, errors.ErrUnsupported }

func protect(mem []byte, open bool) {}

func unmapPages(mem []byte) {}
