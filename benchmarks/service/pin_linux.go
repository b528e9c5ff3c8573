package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// allowedCPUs returns the CPUs this process may run on.
func allowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for c := 0; c < 1024 && len(cpus) < set.Count(); c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// pinProcess restricts every thread of the process to cpu. Linux sets
// affinity per thread and a new thread inherits its creator's, so setting
// it on every thread that exists (twice, for threads started meanwhile)
// pins the whole process from then on.
func pinProcess(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	return setAffinity(&set)
}

// unpinProcess lets every thread run on cpus again.
func unpinProcess(cpus []int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return setAffinity(&set)
}

func setAffinity(set *unix.CPUSet) error {
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("sched_setaffinity: %w", err)
			}
		}
	}
	return nil
}
