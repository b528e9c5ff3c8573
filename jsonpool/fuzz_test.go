package jsonpool_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/poolkit/poolkit/jsonpool"
)

// FuzzUnmarshal checks that, on any input, Unmarshal agrees with
// json.Unmarshal: the same error, or the same value, with a pooled value
// and decoder reused from the previous input.
//
//	go test -run '^$' -fuzz FuzzUnmarshal -fuzztime 1m ./jsonpool
func FuzzUnmarshal(f *testing.F) {
	for _, in := range unmarshalInputs {
		f.Add([]byte(in))
	}
	p := jsonpool.NewPool[record]()
	f.Fuzz(func(t *testing.T, data []byte) {
		var want record
		wantErr := json.Unmarshal(data, &want)
		got, err := jsonpool.Unmarshal(p, data)
		if !sameErr(err, wantErr) {
			t.Fatalf("Unmarshal(%q) error = %v, want %v", data, err, wantErr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("Unmarshal(%q) = %+v, want %+v", data, *got, want)
		}
		p.Put(got)
	})
}

// FuzzUnmarshalReuse checks that, on any input, UnmarshalReuse into one
// target reused from the previous input agrees with json.Unmarshal into a
// fresh value: the same error, or the same value but that slices and maps
// may be empty where json.Unmarshal leaves them nil.
//
//	go test -run '^$' -fuzz FuzzUnmarshalReuse -fuzztime 1m ./jsonpool
func FuzzUnmarshalReuse(f *testing.F) {
	for _, in := range unmarshalInputs {
		f.Add([]byte(in))
	}
	var v record
	f.Fuzz(func(t *testing.T, data []byte) {
		var want record
		wantErr := json.Unmarshal(data, &want)
		err := jsonpool.UnmarshalReuse(&v, data)
		if !sameErr(err, wantErr) {
			t.Fatalf("UnmarshalReuse(%q) error = %v, want %v", data, err, wantErr)
		}
		if err != nil {
			want = record{}
		}
		if !equalModEmpty(reflect.ValueOf(v), reflect.ValueOf(want)) {
			t.Fatalf("UnmarshalReuse(%q) = %+v, want %+v", data, v, want)
		}
	})
}
