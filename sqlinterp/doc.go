// Package sqlinterp interpolates arguments into MySQL and MariaDB queries on
// the client side, without allocating when the caller supplies the buffer.
//
// Each ? placeholder is replaced with an escaped SQL literal.
//
// Client-side interpolation saves the prepare and close round trips of a
// server-side prepared statement; go-sql-driver/mysql does it when its
// interpolateParams option is set. This package is that job as a library
// for drivers, proxies and query loggers: [Append] appends the finished
// query to a byte slice the caller owns, in one pass, sized up front, with
// strconv-style appenders and times written digit by digit, and allocates
// nothing once the slice has room. [AppendArgs] takes typed arguments
// without boxing them, and [Parse] reads a constant query once, for its
// [Query.AppendArgs]. [Interpolate] is a convenience that returns a
// string and accepts any argument database/sql would.
//
// # Dialect
//
// A ? is a placeholder only in code: not inside '…' or "…" string literals,
// `…` quoted identifiers, -- , # or /* … */ comments. Inside string
// literals a backslash escapes the next byte unless
// [Options.NoBackslashEscapes] is set, and a doubled quote stands for one
// quote in either mode. A /* … */ comment ends at its first */: comments do
// not nest. "--" starts a comment when a space or an ASCII control
// character follows it, or nothing.
//
// # Executable comments
//
// Servers read an executable comment, /*! … */, /*!50700 … */ or
// /*M! … */, or an optimizer hint, /*+ … */, differently: they run it or
// skip it, by version and brand. One is plain when it is closed and every
// byte up to its first */ is one of
//
//	letters, digits, _ $ . , = ( ) + - * space \t \n \r \v \f
//
// with no two - in a row. Nothing in it opens a quoted part or a comment
// (no quote, backquote, #, --, /* or \, no ? either, nor NUL or a byte from
// 0x80 up), so a server that runs it reads code up to the same */ at which
// one that skips it ends it, and both read the query after it alike: a
// placeholder after a plain executable comment is replaced as any other.
// Optimizer hints and version comments as applications write them are
// plain: "SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t WHERE id = ?",
// "INSERT /*+ SET_VAR(foreign_key_checks=OFF) */ INTO t VALUES (?)",
// "SELECT /*!40001 SQL_NO_CACHE */ * FROM t WHERE a = ?".
//
// # Refused queries
//
// Some constructs are read differently by different servers, versions or
// connection character sets, so where a value placed after them would land
// cannot be known from the query alone. The package reads a query only up
// to the first of them, and refuses with a *QueryError any query that has a
// ? byte anywhere after it, in code, in quotes or in comments alike:
//
//   - an executable comment or optimizer hint that is not plain (one with a
//     quote in it, for instance: servers run them or skip them, and end
//     them in different places);
//   - "--" followed by a byte from 0x7F up (a comment in latin1, where 0xA0
//     is a space, and code in utf8mb4);
//   - a NUL byte (MariaDB ends a -- or # comment there).
//
// A query with no ? after such a construct is interpolated up to it and
// copied unchanged from it: "SELECT ? /*+ QB_NAME('q') */" works,
// "SELECT /*+ QB_NAME('q') */ ?" is refused. A driver can send a refused
// query as a server-side prepared statement instead (go-sql-driver/mysql
// falls back so when its interpolation returns driver.ErrSkip). A ? right
// after @ or \ is refused too: @'…' names a variable, in which a backslash
// escapes nothing, and \ swallows the quote after it.
//
// Arguments become literals as follows:
//
//	nil                      NULL
//	int64, uint64            decimal digits
//	float64                  shortest form that reads back as the same float;
//	                         NaN and ±Inf have no literal and are an error
//	bool                     1 or 0
//	time.Time                'YYYY-MM-DD HH:MM:SS[.ffffff]' in Options.Location
//	                         (UTC when nil); the zero time is '0000-00-00';
//	                         digits below a microsecond are dropped, years
//	                         outside 1..9999 are an error
//	[]byte                   _binary'…' (nil is NULL)
//	string                   '…'
//	json.RawMessage          '…' (nil is NULL)
//
// A literal never touches a byte it would fuse with: where the byte
// before or after it in the query, or another literal, is a letter, a
// digit, _, $, ., ' or a byte from 0x80 up, or the byte before it is a +
// or - that follows an e or E, a space goes between them. Without it, the
// literals 'a' and 'b' written together would be the one string a'b (a
// doubled quote stands for one), x then '41' a hex literal, 1 then 5 the
// number 15, 5 then e1 the number 50, 1e- then 5 the number 0.00001. So
// "SELECT ??" with "a" and "b" gives "SELECT 'a' 'b'" (adjacent strings,
// which SQL concatenates), "SELECT 1?" with 5 gives "SELECT 1 5" (a syntax
// error, not 15), and "SELECT 1e-? FROM t" with 5 gives
// "SELECT 1e- 5 FROM t" (the column 1e minus 5).
//
// # Safety
//
// The escaping is correct when two conditions hold, and both are the
// caller's to ensure:
//
//   - The Options describe the server session: NoBackslashEscapes must be
//     set exactly when the session's sql_mode contains NO_BACKSLASH_ESCAPES,
//     and ANSIQuotes exactly when it contains ANSI_QUOTES. Both change where
//     a literal ends, for the server and for this package's reading of the
//     query.
//   - The connection character set is one in which the bytes of ', " and \
//     never occur inside a multibyte character: utf8mb4, utf8mb3, latin1,
//     ascii and binary are; big5, cp932, gb2312, gbk and sjis are not, and
//     go-sql-driver/mysql refuses interpolation with them for that reason.
//
// The package's tests check every escaped value against a real MariaDB
// server in both escape modes, and check this package's reading of
// thousands of random queries per run, full of quotes, comments and
// executable comments, against the server's: no value may run as SQL, end
// its literal or land in a comment (CONTRIBUTING.md says how to run them).
package sqlinterp
