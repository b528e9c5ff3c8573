package released

import "testing"

// A test checks what the release left in the value: it reads it, and
// nothing else.
func TestPutDropsLargeBuffer(t *testing.T) {
	e := getEnc()
	e.buf = make([]byte, 1<<20)
	e.name = "x"
	putEnc(e)
	for name, n := range map[string]int{"buf": cap(e.buf), "name": len(e.name)} {
		if n > 1<<16 {
			t.Errorf("%s: %d after putEnc", name, n)
		}
	}
	if e.name != "" {
		t.Fatalf("name %q kept", e.name)
	}
}

// A test that writes to the value after the release: reported.
func TestWriteAfter(t *testing.T) {
	e := getEnc()
	putEnc(e)
	e.buf = append(e.buf, 'x') // want `e is used after it was put back into encoders on line 25`
}

// A test that calls a method of the released value: reported.
func TestMethodAfter(t *testing.T) {
	e := getEnc()
	putEnc(e)
	e.reset() // want `e is used after it was put back into encoders on line 32`
}

// A test that hands the released value on: reported.
func TestPassAfter(t *testing.T) {
	e := getEnc()
	putEnc(e)
	keep(e) // want `e is used after it was put back into encoders on line 39`
}

func keep(e *enc) { _ = e }

// A helper of a test file, not a test, reading after the release: reported.
func helperRead() int {
	e := getEnc()
	putEnc(e)
	return cap(e.buf) // want `e is used after it was put back into encoders on line 48`
}
