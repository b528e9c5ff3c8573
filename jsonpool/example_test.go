package jsonpool_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/poolkit/poolkit/jsonpool"
)

func ExampleMarshal() {
	type point struct{ X, Y int }
	buf := make([]byte, 0, 64) // reuse it across calls: no allocation
	buf = append(buf, "point="...)
	buf, err := jsonpool.Marshal(buf, &point{1, 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(buf))
	// Output: point={"X":1,"Y":2}
}

func ExampleEncode() {
	v := map[string]string{"html": "<b>&</b>"}
	// One Write, and the same bytes as json.NewEncoder(os.Stdout).Encode(v).
	if err := jsonpool.Encode(os.Stdout, v); err != nil {
		panic(err)
	}
	if err := (jsonpool.Options{NoHTMLEscape: true}).Encode(os.Stdout, v); err != nil {
		panic(err)
	}
	// Output:
	// {"html":"\u003cb\u003e\u0026\u003c/b\u003e"}
	// {"html":"<b>&</b>"}
}

type request struct {
	User  string   `json:"user"`
	Roles []string `json:"roles"`
}

var requests = jsonpool.NewPool[request]()

func ExampleUnmarshal() {
	for _, body := range []string{`{"user":"ann","roles":["admin"]}`, `{"user":"bob"}`} {
		r, err := jsonpool.Unmarshal(requests, []byte(body))
		if err != nil {
			panic(err)
		}
		// bob gets no roles: the pooled value was zeroed, not reused as is.
		fmt.Printf("%s %q\n", r.User, r.Roles)
		requests.Put(r) // r must not be used after this
	}
	// Output:
	// ann ["admin"]
	// bob []
}

func ExampleDecode() {
	body := strings.NewReader(`{"user": "ann", "roles": [1]}`)
	r, err := jsonpool.Decode(requests, body)
	// The error is encoding/json's own, as json.Unmarshal returns it.
	var typeErr *json.UnmarshalTypeError
	fmt.Println(r == nil, errors.As(err, &typeErr))
	// Output: true true
}

func ExampleAppendEncode() {
	// A response body built in a reused buffer: the bytes
	// json.NewEncoder(w).Encode(v) writes, newline and HTML escaping
	// included.
	body := make([]byte, 0, 512)
	body, err := jsonpool.AppendEncode(body[:0], map[string]string{"note": "a<b"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", body)
	// Output: "{\"note\":\"a\\u003cb\"}\n"
}

func ExampleEncodeN() {
	// The byte count an access log wants, without wrapping the writer.
	n, err := jsonpool.EncodeN(os.Stdout, []int{1, 2, 3})
	fmt.Println(n, err)
	// Output:
	// [1,2,3]
	// 8 <nil>
}

type order struct {
	Customer string   `json:"customer"`
	Items    []string `json:"items"`
}

func ExampleUnmarshalReuse() {
	// One target, reused: Items keeps its backing array from one document
	// to the next, and nothing of an earlier document can be read.
	var o order
	for _, body := range []string{`{"customer":"ann","items":["a","b","c"]}`, `{"items":["d"]}`} {
		if err := jsonpool.UnmarshalReuse(&o, []byte(body)); err != nil {
			panic(err)
		}
		fmt.Printf("%q %q, first 3 of its array: %q\n", o.Customer, o.Items, o.Items[:3])
	}
	// Output:
	// "ann" ["a" "b" "c"], first 3 of its array: ["a" "b" "c"]
	// "" ["d"], first 3 of its array: ["d" "" ""]
}

// A jsonpool.Time field encodes as a time.Time field does, without the
// allocation time.Time's MarshalJSON makes, when the value is encoded
// through a pointer.
func ExampleTime() {
	type event struct {
		Name string        `json:"name"`
		At   jsonpool.Time `json:"at"`
	}
	e := &event{Name: "deploy", At: jsonpool.Time{Time: time.Date(2026, 11, 22, 21, 10, 5, 0, time.UTC)}}
	buf, err := jsonpool.AppendEncode(nil, e)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(buf))
	// Output: {"name":"deploy","at":"2026-11-22T21:10:05Z"}
}
