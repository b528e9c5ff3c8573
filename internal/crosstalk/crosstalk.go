// Package crosstalk makes the inputs of tests that check that nothing of
// one caller's input shapes another caller's output: a body of one client
// holding a secret, and bodies of another client with none of its bytes.
package crosstalk

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Token is the secret Secret's bodies hold. Its letters are capitals, and
// no body of Other holds a capital letter, so a symbol of Token in what
// was made for Other can only have come from Secret.
const Token = "QXZJKVWY"

// Secret returns one client's JSON answer of at most n bytes (and at
// least about 100), holding Token many times.
func Secret(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"user":"alice","token":"` + Token + `","orders":[`)
	for i := 0; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"ref":"%s-%d","note":"JKQVWXYZ %d"}`, i, Token, i*7, i%13)
	}
	b.WriteString(`],"end":"` + Token + `"}`)
	return b.Bytes()
}

// Other returns another client's JSON answer of at most n bytes (and at
// least about 100), with no capital letter, drawn from seed.
func Other(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 9))
	var b bytes.Buffer
	b.WriteString(`{"user":"bob","items":[`)
	for i := 0; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%x","price":%d.%02d,"ok":%t}`, i, r.Uint32(), r.IntN(1000), r.IntN(100), r.IntN(2) == 0)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}
