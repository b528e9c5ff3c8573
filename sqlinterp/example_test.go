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

func ExampleAppendArgs() {
	type order struct {
		ID       int64
		Customer string
		Total    float64
		Paid     bool
		Placed   time.Time
	}
	// Keep the buffer and the Args together, per connection or in a pooled
	// per-request scratch value: once both have grown, filling the Args
	// and interpolating allocate nothing, where a []driver.Value would box
	// the ID, the customer, the total and the time on every query.
	var (
		buf  []byte
		args sqlinterp.Args
	)
	for _, o := range []order{
		{1001, "O'Brien", 99.5, true, time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)},
		{1002, `C:\temp`, 1e21, false, time.Time{}},
	} {
		args.Reset() // one Add per placeholder, in order
		args.AddInt64(o.ID)
		args.AddString(o.Customer)
		args.AddFloat64(o.Total)
		args.AddBool(o.Paid)
		args.AddTime(o.Placed)
		var err error
		buf, err = sqlinterp.AppendArgs(buf[:0], "INSERT INTO orders VALUES (?, ?, ?, ?, ?)", &args,
			sqlinterp.Options{MaxSize: 1 << 20})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// INSERT INTO orders VALUES (1001, 'O\'Brien', 99.5, 1, '2024-02-29 12:00:00')
	// INSERT INTO orders VALUES (1002, 'C:\\temp', 1e+21, 0, '0000-00-00')
}

// insertItem is parsed once, when the program starts: a Query is read-only
// and safe to share between goroutines.
var insertItem = sqlinterp.MustParse("INSERT INTO items (order_id, sku, note) VALUES (?, ?, ?) -- why?")

func ExampleQuery_AppendArgs() {
	// As with AppendArgs, keep the buffer and the Args together; the
	// parsed query saves reading its text for placeholders on each call.
	var (
		buf  []byte
		args sqlinterp.Args
	)
	for _, sku := range []string{"SKU-1", "it's ?"} {
		args.Reset()
		args.AddInt64(1001)
		args.AddString(sku)
		args.AddNull()
		var err error
		buf, err = insertItem.AppendArgs(buf[:0], &args, sqlinterp.Options{MaxSize: 1 << 20})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s\n", buf)
	}
	// The errors are AppendArgs' errors.
	args.Reset()
	args.AddInt64(1002)
	_, err := insertItem.AppendArgs(buf[:0], &args, sqlinterp.Options{})
	fmt.Println(err)
	// Output:
	// INSERT INTO items (order_id, sku, note) VALUES (1001, 'SKU-1', NULL) -- why?
	// INSERT INTO items (order_id, sku, note) VALUES (1001, 'it\'s ?', NULL) -- why?
	// sqlinterp: query has 3 placeholders but 1 arguments were given
}

func ExampleParse() {
	// A query that some session would read in a doubtful way is refused
	// up front, whatever the Options it is later used with.
	_, err := sqlinterp.Parse("SELECT /*+ INDEX(t `by name`) */ id FROM t WHERE name = ?")
	fmt.Println(err)
	q, err := sqlinterp.Parse(`SELECT 'it\'s', ?`)
	fmt.Println(q.NumPlaceholders(sqlinterp.Options{}), q.NumPlaceholders(sqlinterp.Options{NoBackslashEscapes: true}), err)
	// Output:
	// sqlinterp: query byte 7: an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 56); put placeholders before it or use a server-side prepared statement
	// 1 0 <nil>
}

func ExampleAppend_optimizerHint() {
	// An optimizer hint or a version comment that holds only names,
	// numbers and operators reads the same whether the server runs it or
	// skips it, so placeholders after it are replaced as anywhere else.
	q, err := sqlinterp.Append(nil, "SELECT /*+ MAX_EXECUTION_TIME(1000) */ /*!40001 SQL_NO_CACHE */ name FROM t WHERE id = ?",
		[]driver.Value{int64(7)}, sqlinterp.Options{})
	fmt.Printf("%s %v\n", q, err)
	// One with a quote in it is read differently by different servers:
	// a ? after it is refused.
	_, err = sqlinterp.Append(nil, "SELECT /*+ QB_NAME('q1') */ name FROM t WHERE id = ?", []driver.Value{int64(7)}, sqlinterp.Options{})
	fmt.Println(err)
	// Output:
	// SELECT /*+ MAX_EXECUTION_TIME(1000) */ /*!40001 SQL_NO_CACHE */ name FROM t WHERE id = 7 <nil>
	// sqlinterp: query byte 7: an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 51); put placeholders before it or use a server-side prepared statement
}

func ExampleAppend_touchingPlaceholders() {
	// A literal that would touch a quote, a word or another literal is set
	// apart by a space, so that the server reads each value as given:
	// 'a''b' would be one string, a'b, and 1 then 5 the number 15.
	q, err := sqlinterp.Append(nil, "SELECT ??, 'x'?, 1?", []driver.Value{"a", "b", "c", int64(5)}, sqlinterp.Options{})
	fmt.Printf("%s %v\n", q, err)
	// Output:
	// SELECT 'a' 'b', 'x' 'c', 1 5 <nil>
}
