package jsonpool_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/jsonpool"
)

// Many goroutines share the package's encoder, decoder and buffer pools and
// one pool of values; each checks every result it gets, so a pooled object
// reaching two users at once, or one user's state reaching another, shows
// up as a wrong result here and as a race under -race.
func TestConcurrentUse(t *testing.T) {
	const goroutines, rounds = 8, 300
	// owned is the sample struct with a mark, unseen by encoding/json, that
	// each holder sets on receipt and clears before Put: a value handed to
	// two holders at once fails one of the two swaps.
	type owned struct {
		sampleData
		mark int32
	}
	p := jsonpool.NewPool[owned]()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst []byte
			var w bytes.Buffer
			for i := 0; i < rounds; i++ {
				want := sampleData{ID: g*rounds + i, Name: fmt.Sprintf("g%d-%d", g, i)}
				for j := 0; j < i%5; j++ {
					want.Items = append(want.Items, strings.Repeat("x", j+g))
				}
				var err error
				dst, err = jsonpool.Marshal(dst[:0], &want)
				if err != nil {
					errs <- err
					return
				}
				w.Reset()
				if err := (jsonpool.Options{Indent: strings.Repeat(" ", g%3)}).Encode(&w, &want); err != nil {
					errs <- err
					return
				}
				var v *owned
				if i%2 == 0 {
					v, err = jsonpool.Unmarshal(p, dst)
				} else {
					v, err = jsonpool.Decode(p, &w)
				}
				if err != nil {
					errs <- err
					return
				}
				if !atomic.CompareAndSwapInt32(&v.mark, 0, 1) {
					errs <- fmt.Errorf("goroutine %d round %d: value already held", g, i)
					return
				}
				if v.ID != want.ID || v.Name != want.Name || len(v.Items) != len(want.Items) {
					errs <- fmt.Errorf("goroutine %d round %d: got %+v, want %+v", g, i, v.sampleData, want)
					return
				}
				for k := range v.Items {
					if v.Items[k] != want.Items[k] {
						errs <- fmt.Errorf("goroutine %d round %d: got %+v, want %+v", g, i, v.sampleData, want)
						return
					}
				}
				if !atomic.CompareAndSwapInt32(&v.mark, 1, 0) {
					errs <- fmt.Errorf("goroutine %d round %d: value taken by another holder", g, i)
					return
				}
				p.Put(v)
				if i%7 == 0 { // failures interleaved with successes
					if _, err := jsonpool.Unmarshal(p, []byte(`{"id":"x","name":"bad"}`)); err == nil {
						errs <- fmt.Errorf("no error for a type mismatch")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
