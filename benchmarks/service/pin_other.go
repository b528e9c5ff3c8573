//go:build !linux

package main

import "errors"

var errNoPinning = errors.New("CPU pinning is implemented for Linux only")

func allowedCPUs() ([]int, error) { return nil, errNoPinning }
func pinProcess(int) error        { return errNoPinning }
func unpinProcess([]int) error    { return errNoPinning }
