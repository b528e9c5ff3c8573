package workloads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/jsonpool"
)

// The JSON workloads: the three pooled JSON cases of ludwig125's sync.Pool
// article on its struct, and the json.Unmarshal into a struct with a 1 KiB
// array field of 使用 Sync Pool 提升程序性能. Every variant hands its result to
// a consumer reached through a function variable, which checks it.

const (
	srcJSON = "ludwig125, golangのsync.Poolで速度改善したい, " +
		"go test -bench, 8 threads, linux/amd64"
	srcStudent = "使用 Sync Pool 提升程序性能, Intel i7-8559U, darwin/amd64"
)

// jsonData is the article's JsonData.
type jsonData struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

// jData and sData are the article's benchmark input, as a value and as
// the string it decodes.
var (
	jData = jsonData{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}}
	sData = `{"id":1,"name":"Jack","items":["knife","shield","herbs"]}`
)

var (
	consumeEncoded = func(s string) error {
		if s != sData {
			return fmt.Errorf("json encode: got %s, want %s", s, sData)
		}
		return nil
	}
	consumeDecoded = func(d jsonData) error {
		if d.ID != jData.ID || d.Name != jData.Name || len(d.Items) != len(jData.Items) {
			return fmt.Errorf("json decode: got %+v, want %+v", d, jData)
		}
		for i := range d.Items {
			if d.Items[i] != jData.Items[i] {
				return fmt.Errorf("json decode: got %+v, want %+v", d, jData)
			}
		}
		return nil
	}
)

// ---- encode to a stream (the article's EncodeJSONStream) ----

// encodeStreamNaive is the article's EncodeJSONStream.
func encodeStreamNaive(in jsonData) (string, error) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(in); err != nil {
		return "", err
	}
	return strings.TrimRight(buf.String(), "\n"), nil
}

var encRespPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

// encodeStreamSeed is the article's EncodeJSONStreamWithPool, as published.
func encodeStreamSeed(in jsonData) (string, error) {
	buf := encRespPool.Get().(*bytes.Buffer)
	defer encRespPool.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(in); err != nil {
		return "", err
	}
	return strings.TrimRight(buf.String(), "\n"), nil
}

var jsonBuffers bytebuf.Pool

// encodeStreamKit encodes through jsonpool.Encode into a pooled buffer and
// returns the same string; the string is its one allocation.
func encodeStreamKit(in *jsonData) (string, error) {
	buf := jsonBuffers.Get()
	err := jsonpool.Encode(buf, in)
	var s string
	if err == nil {
		s = string(buf.B[:len(buf.B)-1]) // without the newline, as the article's
	}
	jsonBuffers.Put(buf)
	return s, err
}

// ---- decode (the article's DecodeJSON, DecodeJSONStream) ----

// decodeNaive is the article's DecodeJSON.
func decodeNaive(in string) (jsonData, error) {
	var res jsonData
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		return jsonData{}, err
	}
	return res, nil
}

// decodeStreamNaive is the article's DecodeJSONStream.
func decodeStreamNaive(in io.Reader) (jsonData, error) {
	var res jsonData
	if err := json.NewDecoder(in).Decode(&res); err != nil {
		return jsonData{}, err
	}
	return res, nil
}

var decRespPool = &sync.Pool{New: func() any { return &jsonData{} }}

// decodeSeed is the article's DecodeJSONWithPool with one line added: the
// pooled value is zeroed before the decode (see jsonDecodeSeedNote).
func decodeSeed(in string) (jsonData, error) {
	res := decRespPool.Get().(*jsonData)
	defer decRespPool.Put(res)
	*res = jsonData{} // added: not in the article
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		return jsonData{}, err
	}
	return *res, nil
}

// decodeStreamSeed is the article's DecodeJSONStreamWithPool with the same
// line added.
func decodeStreamSeed(in io.Reader) (jsonData, error) {
	res := decRespPool.Get().(*jsonData)
	defer decRespPool.Put(res)
	*res = jsonData{} // added: not in the article
	if err := json.NewDecoder(in).Decode(&res); err != nil {
		return jsonData{}, err
	}
	return *res, nil
}

var decodeKitPool = jsonpool.NewPool[jsonData]()

// decodeKit decodes with jsonpool.Unmarshal. Copying the struct out before
// Put is safe: jsonpool zeroes values instead of decoding into their old
// slices, so the copy shares nothing the next decode writes.
func decodeKit(in string) (jsonData, error) {
	v, err := jsonpool.Unmarshal(decodeKitPool, []byte(in))
	if err != nil {
		return jsonData{}, err
	}
	res := *v
	decodeKitPool.Put(v)
	return res, nil
}

func decodeStreamKit(in io.Reader) (jsonData, error) {
	v, err := jsonpool.Decode(decodeKitPool, in)
	if err != nil {
		return jsonData{}, err
	}
	res := *v
	decodeKitPool.Put(v)
	return res, nil
}

const jsonDecodeSeedNote = "One line added to the article's function: *res = JsonData{} before decoding. " +
	"Without it a document that omits a field keeps the previous request's value, and, worse, " +
	"json.Unmarshal decodes Items into the pooled value's old backing array, which the copy " +
	"returned to the previous caller still shares: every later decode overwrites results already handed out. " +
	"The article's &res (a **JsonData, which moves res to the heap) is kept as published."

const jsonKitNote = "The input goes through the same conversion as in the article's function " +
	"([]byte(in), or a fresh strings.Reader), one allocation, in every variant; the rest are the result's " +
	"own: Name, three item strings, and Items grown to capacity 1, 2 and 4."

// ---- json.Unmarshal into a struct with a 1 KiB array (使用 Sync Pool 提升程序性能) ----

// student is the article's Student.
type student struct {
	Name   string
	Age    int32
	Remark [1024]byte
}

// studentJSON is the document the seed decodes. Its excerpt does not show
// it; like the article it follows (geektutu's sync.Pool post), it is the
// encoding of Student{Name: "Geektutu", Age: 25}, the Remark array being a
// JSON array of 1024 zeros.
var studentJSON = func() []byte {
	b, err := json.Marshal(student{Name: "Geektutu", Age: 25})
	if err != nil {
		panic(err)
	}
	return b
}()

var (
	consumeStudent = func(s *student) error {
		if s.Name != "Geektutu" || s.Age != 25 {
			return fmt.Errorf("json unmarshal: got Name %q Age %d, want Geektutu 25", s.Name, s.Age)
		}
		return nil
	}
)

var studentSeedPool = sync.Pool{New: func() any { return new(student) }}

var studentKitPool = jsonpool.NewPool[student]()

func studentNaive() error {
	stu := &student{}
	if err := json.Unmarshal(studentJSON, stu); err != nil {
		return err
	}
	return consumeStudent(stu)
}

func studentSeed() error {
	stu := studentSeedPool.Get().(*student)
	//poolvet:ignore dirtydecode reproduces the article's decode into a pooled struct not zeroed (harmless here: the document sets every field)
	err := json.Unmarshal(studentJSON, stu)
	if err == nil {
		err = consumeStudent(stu)
	}
	studentSeedPool.Put(stu)
	return err
}

func studentKit() error {
	stu, err := jsonpool.Unmarshal(studentKitPool, studentJSON)
	if err != nil {
		return err
	}
	err = consumeStudent(stu)
	studentKitPool.Put(stu)
	return err
}

const studentSeedNote = "As published but for error checks. The pooled Student is not reset; harmless " +
	"here only because the document sets every field (a document without Name would get the last one)."

const studentKitNote = "json.Unmarshal's decoder state and its reflect walk over 1024 array elements are gone: " +
	"jsonpool's own decoder fills the zeroed Student's [1024]byte in place, one loop over the digits. " +
	"What is left is the Name string, on either engine of encoding/json."

func registerJSON() {
	w := "json encode stream"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1,
			Op:        consumed(func() (string, error) { return encodeStreamNaive(jData) }, consumeEncoded),
			Published: &Figure{NsPerOp: 636, AllocsPerOp: 5, Source: srcJSON + ", BenchmarkEncodeJSONStream"}},
		Case{Workload: w, Variant: Seed, WantAllocs: -1,
			Op:        consumed(func() (string, error) { return encodeStreamSeed(jData) }, consumeEncoded),
			Published: &Figure{NsPerOp: 577, AllocsPerOp: 3, Source: srcJSON + ", BenchmarkEncodeJSONStreamWithPool"},
			Footnote:  "As published."},
		Case{Workload: w, Variant: Poolkit, Name: "jsonpool", WantAllocs: 1,
			Op: consumed(func() (string, error) { return encodeStreamKit(&jData) }, consumeEncoded),
			Footnote: "jsonpool.Encode into a pooled bytebuf.Buffer, then the same string: that string is the one " +
				"allocation. The value is passed by pointer; the article passes the struct by value, which " +
				"copies it into an interface (one allocation) on every call."},
	)

	w = "json decode"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1,
			Op:        consumed(func() (jsonData, error) { return decodeNaive(sData) }, consumeDecoded),
			Published: &Figure{NsPerOp: 1903, AllocsPerOp: 12, Source: srcJSON + ", BenchmarkDecodeJSON"}},
		Case{Workload: w, Variant: Seed, WantAllocs: -1,
			Op:        consumed(func() (jsonData, error) { return decodeSeed(sData) }, consumeDecoded),
			Published: &Figure{NsPerOp: 1697, AllocsPerOp: 10, Source: srcJSON + ", BenchmarkDecodeJSONWithPool"},
			Footnote:  jsonDecodeSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "jsonpool", WantAllocs: 8,
			Op:       consumed(func() (jsonData, error) { return decodeKit(sData) }, consumeDecoded),
			Footnote: "jsonpool.Unmarshal. " + jsonKitNote},
	)

	w = "json decode stream"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1,
			Op:        consumed(func() (jsonData, error) { return decodeStreamNaive(strings.NewReader(sData)) }, consumeDecoded),
			Published: &Figure{NsPerOp: 2255, AllocsPerOp: 15, Source: srcJSON + ", BenchmarkDecodeJSONStream"}},
		Case{Workload: w, Variant: Seed, WantAllocs: -1,
			Op:        consumed(func() (jsonData, error) { return decodeStreamSeed(strings.NewReader(sData)) }, consumeDecoded),
			Published: &Figure{NsPerOp: 2075, AllocsPerOp: 13, Source: srcJSON + ", BenchmarkDecodeJSONStreamWithPool"},
			Footnote:  jsonDecodeSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "jsonpool", WantAllocs: 8,
			Op:       consumed(func() (jsonData, error) { return decodeStreamKit(strings.NewReader(sData)) }, consumeDecoded),
			Footnote: "jsonpool.Decode, reading through a pooled buffer. " + jsonKitNote},
	)

	w = "json unmarshal 1KiB array"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1, Op: studentNaive,
			Published: &Figure{NsPerOp: 87396, AllocsPerOp: 8, Source: srcStudent + ", BenchmarkUnmarshal"}},
		Case{Workload: w, Variant: Seed, WantAllocs: -1, Op: studentSeed,
			Published: &Figure{NsPerOp: 86024, AllocsPerOp: 7, Source: srcStudent + ", BenchmarkUnmarshalWithPool"},
			Footnote:  studentSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "jsonpool", WantAllocs: 1, Op: studentKit,
			Footnote: studentKitNote},
	)
}
