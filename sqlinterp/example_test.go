package sqlinterp_test

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/poolkit/poolkit/sqlinterp"
)

func ExampleAppend() {
	// A driver keeps one buffer per connection and appends every query
	// into it; once it has grown, Append allocates nothing.
	var buf []byte
	for _, name := range []string{"O'Brien", `C:\temp`} {
		var err error
		buf, err = sqlinterp.Append(buf[:0],
			"SELECT id FROM users WHERE name = ? AND note <> '?' -- why?\n LIMIT ?",
			[]driver.Value{name, int64(10)}, sqlinterp.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// SELECT id FROM users WHERE name = 'O\'Brien' AND note <> '?' -- why?
	//  LIMIT 10
	// SELECT id FROM users WHERE name = 'C:\\temp' AND note <> '?' -- why?
	//  LIMIT 10
}

func ExampleAppend_noBackslashEscapes() {
	// For a session whose sql_mode contains NO_BACKSLASH_ESCAPES.
	opts := sqlinterp.Options{NoBackslashEscapes: true, Location: time.UTC}
	q, _ := sqlinterp.Append(nil, "INSERT INTO t VALUES (?, ?, ?)",
		[]driver.Value{`it's C:\`, []byte{0, '\''}, time.Date(2015, 2, 8, 16, 5, 42, 807015000, time.UTC)}, opts)
	fmt.Printf("%q\n", q)
	// Output:
	// "INSERT INTO t VALUES ('it''s C:\\', _binary'\x00''', '2015-02-08 16:05:42.807015')"
}

func ExampleInterpolate() {
	q, err := sqlinterp.Interpolate("UPDATE t SET n = ?, f = ?, ok = ?, note = ? WHERE id = ?",
		42, float32(0.5), true, nil, uint64(1<<63))
	fmt.Println(q, err)
	// Output:
	// UPDATE t SET n = 42, f = 0.5, ok = 1, note = NULL WHERE id = 9223372036854775808 <nil>
}

func ExampleCountError() {
	_, err := sqlinterp.Interpolate("SELECT ?, '?'", 1, 2)
	var ce *sqlinterp.CountError
	if errors.As(err, &ce) {
		fmt.Println(ce.Placeholders, ce.Args)
	}
	fmt.Println(err)
	// Output:
	// 1 2
	// sqlinterp: query has 1 placeholders but 2 arguments were given
}
