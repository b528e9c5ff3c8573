package sqlinterp

// ReadLiteralN exports the test reader of string literals to the external
// test package.
var ReadLiteralN = readLiteralN
