// Package sqlinterp interpolates arguments into MySQL and MariaDB queries on
// the client side, replacing each ? placeholder with an escaped SQL literal,
// without allocating when the caller supplies the buffer.
//
// Client-side interpolation saves the prepare and close round trips of a
// server-side prepared statement; go-sql-driver/mysql does it when its
// interpolateParams option is set. This package is that job as a library
// for drivers, proxies and query loggers: [Append] appends the finished
// query to a byte slice the caller owns, in one pass, sized up front, with
// strconv-style appenders and times written digit by digit, and allocates
// nothing once the slice has room. [Interpolate] is a convenience that
// returns a string and accepts any argument database/sql would.
//
// # Dialect
//
// A ? is a placeholder only in code: not inside '…' or "…" string literals,
// `…` quoted identifiers, -- , # or /* … */ comments. Inside string
// literals a backslash escapes the next byte unless
// [Options.NoBackslashEscapes] is set, and a doubled quote stands for one
// quote in either mode. The contents of /*! … */ are code, as every server
// runs them. Version-conditional comments, /*!50700 … */ and MariaDB's
// /*M! … */, run on some servers and are skipped by others, so a query is
// refused with a *QueryError when the two readings would differ: when such
// a comment holds a placeholder, or a quoted part or comment that runs past
// its first */. Where the server's reading depends on the character set
// ("--" followed by a byte that is a space in one charset and not in
// another), the reading that finds fewer placeholders is taken: a ? left
// in the query makes the server reject it, while a value placed where the
// server sees a comment could end that comment.
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
// server in both escape modes (see README for how to run them).
package sqlinterp
