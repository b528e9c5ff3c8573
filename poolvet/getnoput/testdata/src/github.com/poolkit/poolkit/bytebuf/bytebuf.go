// Package bytebuf is a stub of poolkit's bytebuf package for analyzer tests.
package bytebuf

type Buffer struct{ B []byte }

func (b *Buffer) Len() int                          { return len(b.B) }
func (b *Buffer) Reset()                            { b.B = b.B[:0] }
func (b *Buffer) Bytes() []byte                     { return b.B }
func (b *Buffer) String() string                    { return string(b.B) }
func (b *Buffer) Write(p []byte) (int, error)       { b.B = append(b.B, p...); return len(p), nil }
func (b *Buffer) WriteString(s string) (int, error) { b.B = append(b.B, s...); return len(s), nil }
func (b *Buffer) WriteByte(c byte) error            { b.B = append(b.B, c); return nil }

type Pool struct{}

func (p *Pool) Get() *Buffer  { return new(Buffer) }
func (p *Pool) Put(b *Buffer) {}

func Get() *Buffer  { return new(Buffer) }
func Put(b *Buffer) {}
