package dirtydecode

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	stdjson "encoding/json"
	"encoding/xml"
	"io"
	"sync"

	"github.com/poolkit/poolkit/pool"
)

type JsonData struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

var decRespPool = sync.Pool{New: func() any { return new(JsonData) }}

type Student struct {
	Name   string
	Age    int
	Remark [1024]byte
}

var studentPool = sync.Pool{New: func() any { return new(Student) }}

var mapPool = sync.Pool{New: func() any { return map[string]any{} }}

var mapPtrPool = sync.Pool{New: func() any { m := map[string]int{}; return &m }}

type resettable struct{ A, B string }

func (r *resettable) Reset() { *r = resettable{} }

var resPool = sync.Pool{New: func() any { return new(resettable) }}

type Msg struct {
	XMLName xml.Name `xml:"msg"`
	To      string   `xml:"to"`
}

var msgPool = sync.Pool{New: func() any { return new(Msg) }}

func getData() *JsonData { return decRespPool.Get().(*JsonData) }

// ---- flagged ----

// The seed's bug: &res is a **JsonData; json decodes into *res as it is.
func DecodeJSONWithPool(in string) (JsonData, error) {
	res := decRespPool.Get().(*JsonData)
	defer decRespPool.Put(res)

	if err := json.Unmarshal([]byte(in), &res); err != nil { // want `^json.Unmarshal decodes into res, taken from decRespPool on line 54 and not zeroed \(fields absent from the input keep the previous user's values\)$`
		return JsonData{}, err
	}
	return JsonData{ID: res.ID, Name: res.Name}, nil
}

func DecodeJSONStreamWithPool(in io.Reader) (string, error) {
	res := decRespPool.Get().(*JsonData)
	defer decRespPool.Put(res)

	if err := json.NewDecoder(in).Decode(&res); err != nil { // want `^\(\*json.Decoder\).Decode decodes into res, taken from decRespPool on line 64`
		return "", err
	}
	return res.Name, nil
}

// The other seed: Get, Unmarshal, Put.
func student(buf []byte) {
	stu := studentPool.Get().(*Student)
	json.Unmarshal(buf, stu) // want `json.Unmarshal decodes into stu, taken from studentPool on line 75`
	studentPool.Put(stu)
}

func pooledMap(buf []byte) int {
	m := mapPool.Get().(map[string]any)
	defer mapPool.Put(m)
	if err := json.Unmarshal(buf, &m); err != nil { // want `keys absent from the input keep the previous user's entries`
		return 0
	}
	return len(m)
}

func pooledMapPtr(buf []byte) int {
	m := mapPtrPool.Get().(*map[string]int)
	json.Unmarshal(buf, m) // want `json.Unmarshal decodes into m, taken from mapPtrPool`
	n := len(*m)
	mapPtrPool.Put(m)
	return n
}

func withReset(buf []byte) string {
	r := resPool.Get().(*resettable)
	json.Unmarshal(buf, r) // want `decodes into r, taken from resPool`
	a := r.A
	resPool.Put(r)
	return a
}

func xmlDecode(buf []byte) string {
	m := msgPool.Get().(*Msg)
	defer msgPool.Put(m)
	xml.Unmarshal(buf, m) // want `xml.Unmarshal decodes into m, taken from msgPool`
	return m.To
}

func xmlStream(r io.Reader) string {
	m := msgPool.Get().(*Msg)
	defer msgPool.Put(m)
	xml.NewDecoder(r).Decode(m) // want `\(\*xml.Decoder\).Decode decodes into m`
	return m.To
}

func gobDecode(r io.Reader) string {
	stu := studentPool.Get().(*Student)
	defer studentPool.Put(stu)
	gob.NewDecoder(r).Decode(stu) // want `\(\*gob.Decoder\).Decode decodes into stu`
	return stu.Name
}

func renamedImport(buf []byte) string {
	d := decRespPool.Get().(*JsonData)
	d.ID = 1                  // a partial write is not a reset
	stdjson.Unmarshal(buf, d) // want `json.Unmarshal decodes into d`
	name := d.Name
	decRespPool.Put(d)
	return name
}

func viaWrapper(buf []byte) string {
	d := getData()
	json.Unmarshal(buf, d) // want `decodes into d, taken from decRespPool`
	s := d.Name
	decRespPool.Put(d)
	return s
}

// ---- clean ----

func zeroFirst(buf []byte) string {
	d := decRespPool.Get().(*JsonData)
	*d = JsonData{}
	json.Unmarshal(buf, d)
	s := d.Name
	decRespPool.Put(d)
	return s
}

func resetFirst(buf []byte) string {
	r := resPool.Get().(*resettable)
	r.Reset()
	json.Unmarshal(buf, r)
	a := r.A
	resPool.Put(r)
	return a
}

func clearMap(buf []byte) int {
	m := mapPool.Get().(map[string]any)
	clear(m)
	json.Unmarshal(buf, &m)
	n := len(m)
	mapPool.Put(m)
	return n
}

func clearMapPtr(buf []byte) int {
	m := mapPtrPool.Get().(*map[string]int)
	defer mapPtrPool.Put(m)
	clear(*m)
	json.Unmarshal(buf, m)
	return len(*m)
}

// Every Put of zeroedPool zeroes the value.
var zeroedPool = sync.Pool{New: func() any { return new(JsonData) }}

func putZeroed(d *JsonData) {
	*d = JsonData{}
	zeroedPool.Put(d)
}

func zeroOnPut(buf []byte) string {
	d := zeroedPool.Get().(*JsonData)
	json.Unmarshal(buf, d)
	s := d.Name
	putZeroed(d)
	return s
}

// Decoding into a fresh value, then copying into the pooled one.
func freshValue(buf []byte) string {
	d := decRespPool.Get().(*JsonData)
	var tmp JsonData
	json.Unmarshal(buf, &tmp)
	*d = tmp
	s := d.Name
	decRespPool.Put(d)
	return s
}

// A pool of buffers is not a decode target.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func bufferSource(r io.Reader, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	b.ReadFrom(r)
	return json.Unmarshal(b.Bytes(), v)
}

// Handed to a helper first: it may zero it.
func prepare(d *JsonData) { *d = JsonData{} }

func handedOff(buf []byte) string {
	d := decRespPool.Get().(*JsonData)
	prepare(d)
	json.Unmarshal(buf, d)
	s := d.Name
	decRespPool.Put(d)
	return s
}

// A pool nobody puts into hands out fresh values.
var neverPut = sync.Pool{New: func() any { return new(JsonData) }}

func fresh(buf []byte) *JsonData {
	d := neverPut.Get().(*JsonData)
	json.Unmarshal(buf, d)
	return d
}

// Zeroing in the if-init before decoding.
func zeroInBranch(buf []byte, reuse bool) string {
	d := decRespPool.Get().(*JsonData)
	defer decRespPool.Put(d)
	if !reuse {
		*d = JsonData{}
	}
	json.Unmarshal(buf, d)
	return d.Name
}

// poolkit's pool.Pool: without WithReset it hands values back as they were.
var kitData = pool.New(func() *JsonData { return new(JsonData) })

func kitNoReset(buf []byte) string {
	d := kitData.Get()
	defer kitData.Put(d)
	json.Unmarshal(buf, d) // want `json.Unmarshal decodes into d, taken from kitData`
	return d.Name
}

// With WithReset the pool zeroes on Put.
var kitZeroed = pool.New(func() *JsonData { return new(JsonData) },
	pool.WithReset(func(d *JsonData) *JsonData { *d = JsonData{}; return d }))

func kitWithReset(buf []byte) string {
	d := kitZeroed.Get()
	defer kitZeroed.Put(d)
	json.Unmarshal(buf, d)
	return d.Name
}

// Zeroed before the guard that wraps the Put.
var guardedPool = sync.Pool{New: func() any { return new(JsonData) }}

func guardedZero(buf []byte, keep bool) string {
	d := guardedPool.Get().(*JsonData)
	json.Unmarshal(buf, d)
	s := d.Name
	*d = JsonData{}
	if keep {
		guardedPool.Put(d)
	}
	return s
}
