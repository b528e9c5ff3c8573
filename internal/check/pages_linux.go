//go:build linux

package check

import "syscall"

func mapPages(size int) ([]byte, error) {
	return syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

func protect(mem []byte, open bool) {
	prot := syscall.PROT_NONE
	if open {
		prot = syscall.PROT_READ | syscall.PROT_WRITE
	}
	if err := syscall.Mprotect(mem, prot); err != nil {
		Fail("mprotect of checked memory failed: %v", err)
	}
}

func unmapPages(mem []byte) {
	if err := syscall.Munmap(mem); err != nil {
		Fail("munmap of checked memory failed: %v", err)
	}
}
