// Package assert stubs the testify assertions the fixtures call.
package assert

// TestingT is what the assertions report to.
type TestingT interface {
	Errorf(format string, args ...any)
}

// NotNil asserts that object is not nil.
func NotNil(t TestingT, object any, msgAndArgs ...any) bool { return object != nil }

// Equal asserts that the two are equal.
func Equal(t TestingT, expected, actual any, msgAndArgs ...any) bool { return expected == actual }
