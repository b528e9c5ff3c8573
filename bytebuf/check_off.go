//go:build !poolkitcheck

package bytebuf

// Without the poolkitcheck tag the checked-mode state is empty, costing a
// Buffer or a Pool no space, and the checked paths are never called: every
// call site tests the constant check.Enabled, so the compiler drops them.
type (
	bufCheck  struct{}
	poolCheck struct{}
)

func (b *Buffer) checkUse(method string) { _ = b.chk; panic("unreachable: checked mode is off") }
func (b *Buffer) checkGrown()            { panic("unreachable: checked mode is off") }
func (p *Pool) checkedGet() *Buffer      { _ = p.chk; panic("unreachable: checked mode is off") }
func (p *Pool) checkedPut(b *Buffer)     { panic("unreachable: checked mode is off") }
