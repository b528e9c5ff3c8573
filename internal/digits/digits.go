// Package digits holds what poolkit's number writers share: the two
// decimal digits of every number below 100.
package digits

// Pairs holds the two digits of every number below 100, 00 to 99:
// Pairs[2*n] and Pairs[2*n+1] are n's tens and ones.
const Pairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"
