// Package logfmt writes log records in logfmt, the line format of
// space-separated key=value pairs that Heroku popularised and that
// github.com/go-logfmt/logfmt and Grafana Loki's logfmt parser read:
//
//	time=2006-01-02T15:04:05Z level=INFO msg="request done" path=/search status=200 took=1.5ms
//
// It has two front ends that share one encoder and one pool of buffers:
// Line, which builds a record pair by pair and writes it with one Write
// call, and NewHandler, a log/slog Handler. Both allocate nothing per record
// for string, integer, float, bool, duration, time and error values.
//
// # Quoting
//
// A value is written bare unless it needs quotes: when it is empty, or holds
// a space, '=', '"', a control character (bytes below 0x20 and 0x7f) or
// bytes that are not valid UTF-8. A quoted value escapes '"' and '\' with a
// backslash, newline, carriage return and tab as \n, \r and \t, other
// control characters as \u00XX, and each byte of invalid UTF-8 as \ufffd,
// the escapes of JSON strings. go-logfmt's Decoder reads every value back
// as written (the tests check it, and fuzz it), except that each byte of
// invalid UTF-8 reads back as U+FFFD, the replacement character: logfmt
// has no escape for a raw byte. Go's own escapes, such as \x00 written by
// strconv.Quote and slog.TextHandler, are not used, as go-logfmt rejects
// them.
//
// Keys are never quoted, as logfmt has no quoted keys. A key's bytes that a
// parser would not accept in a key (space, '=', '"', control characters,
// invalid UTF-8 and U+FFFD) are written as '_', and an empty key as "_".
package logfmt

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/poolkit/poolkit/internal/digits"
	"github.com/poolkit/poolkit/internal/overlap"
)

// text is the type of string-like input the encoder reads: keys and values
// come as strings from callers and as bytes from fmt and MarshalText.
type text interface{ ~string | ~[]byte }

// bare[c] is true for the ASCII bytes that may appear in a key or an
// unquoted value. It is false for bytes of 0x80 and above, which the
// encoder looks at as UTF-8. The tables have 256 entries so that indexing
// them with a byte needs no bounds check.
var bare = func() (t [256]bool) {
	for c := '!'; c < utf8.RuneSelf; c++ {
		t[c] = c != '=' && c != '"' && c != 0x7f
	}
	return t
}()

// plain[c] is true for the ASCII bytes that are copied as they are into a
// quoted value.
var plain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != 0x7f
	}
	return t
}()

// The scans below test eight bytes at a time, in a uint64, with the
// bit tricks of "Bit Twiddling Hacks" (Sean Eron Anderson, "Determine if a
// word has a byte less than n" and "... has a zero byte"): for n <= 0x80,
// (x - lsb*n) &^ x & msb is not zero exactly when some byte of x is less
// than n. Only whether a word has such a byte is used, never which one it
// is: a word that has one is looked at again byte by byte.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// load8 returns s[i:i+8] as a little-endian word; i+8 <= len(s). The
// compiler merges the byte loads into one.
func load8[S text](s S, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// hasZero is not zero when some byte of x is zero.
func hasZero(x uint64) uint64 { return (x - lsb) &^ x & msb }

// notBare is not zero when some byte of x is not bare: below '!', '=',
// '"', 0x7f or 0x80 and above.
func notBare(x uint64) uint64 {
	return (x-lsb*'!')&^x&msb | x&msb |
		hasZero(x^(lsb*'=')) | hasZero(x^(lsb*'"')) | hasZero(x^(lsb*0x7f))
}

// notPlain is not zero when some byte of x is not plain: below ' ', '"',
// '\\', 0x7f or 0x80 and above.
func notPlain(x uint64) uint64 {
	return (x-lsb*' ')&^x&msb | x&msb |
		hasZero(x^(lsb*'"')) | hasZero(x^(lsb*'\\')) | hasZero(x^(lsb*0x7f))
}

// needsQuotes reports whether s must be quoted to read back as a value.
func needsQuotes[S text](s S) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i < len(s); {
		end := len(s)
		if i+8 <= len(s) {
			if notBare(load8(s, i)) == 0 {
				i += 8
				continue
			}
			end = i + 8 // look at this word byte by byte
		}
		for i < end {
			c := s[i]
			if bare[c] {
				i++
				continue
			}
			if c < utf8.RuneSelf {
				return true
			}
			r, size := decodeRune(s, i)
			if r == utf8.RuneError && size == 1 {
				return true // invalid UTF-8
			}
			i += size
		}
	}
	return false
}

// decodeRune decodes the rune that starts at s[i]. It copies at most
// utf8.UTFMax bytes to the stack so that one generic body serves strings and
// byte slices without converting, and so without allocating.
func decodeRune[S text](s S, i int) (rune, int) {
	var tmp [utf8.UTFMax]byte
	n := copy(tmp[:], s[i:])
	return utf8.DecodeRune(tmp[:n])
}

const hexDigits = "0123456789abcdef"

// AppendValue appends s to dst as a logfmt value, quoted and escaped only
// when it needs to be (see the package documentation), and returns the
// extended slice.
//
// The result is right even when s's bytes lie in dst's spare capacity,
// dst[len(dst):cap(dst)], where AppendValue writes (a string can only be
// made to alias a []byte with package unsafe): s is then copied first,
// which allocates. Otherwise AppendValue allocates only when dst grows.
func AppendValue(dst []byte, s string) []byte {
	if overlap.SpareString(dst, s) {
		s = strings.Clone(s)
	}
	return appendValue(dst, s)
}

func appendValue[S text](dst []byte, s S) []byte {
	if !needsQuotes(s) {
		return append(dst, s...)
	}
	return appendQuoted(dst, s)
}

// appendQuoted appends s in double quotes with the JSON escapes that logfmt
// parsers understand.
func appendQuoted[S text](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
		end := len(s)
		if i+8 <= len(s) {
			if notPlain(load8(s, i)) == 0 {
				i += 8
				continue
			}
			end = i + 8 // look at this word byte by byte
		}
		for i < end {
			c := s[i]
			if plain[c] {
				i++
				continue
			}
			if c < utf8.RuneSelf {
				dst = append(dst, s[start:i]...)
				switch c {
				case '"', '\\':
					dst = append(dst, '\\', c)
				case '\n':
					dst = append(dst, '\\', 'n')
				case '\r':
					dst = append(dst, '\\', 'r')
				case '\t':
					dst = append(dst, '\\', 't')
				default:
					dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				}
				i++
				start = i
				continue
			}
			r, size := decodeRune(s, i)
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\ufffd`...)
				i++
				start = i
				continue
			}
			i += size
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendKey appends key to dst as a logfmt key and returns the extended
// slice. Bytes that logfmt does not allow in a key are written as '_' (see
// the package documentation), so that the line still parses.
//
// Like AppendValue, AppendKey copies key first, and so gives the right
// result, when key's bytes lie in dst's spare capacity.
func AppendKey(dst []byte, key string) []byte {
	if overlap.SpareString(dst, key) {
		key = strings.Clone(key)
	}
	if len(key) == 0 {
		return append(dst, '_')
	}
	return appendKeyPart(dst, key)
}

// appendKeyPart appends key, sanitised, and nothing for an empty key.
func appendKeyPart[S text](dst []byte, key S) []byte {
	for i := 0; i < len(key); {
		if i+8 <= len(key) && notBare(load8(key, i)) == 0 {
			i += 8
			continue
		}
		if !bare[key[i]] {
			return appendKeySlow(dst, key, i)
		}
		i++
	}
	return append(dst, key...)
}

// appendKeySlow appends key whose first i bytes are plain ASCII, replacing
// what a parser would reject with '_'. go-logfmt's Decoder rejects keys that
// hold U+FFFD, even valid ones, so those are replaced too.
func appendKeySlow[S text](dst []byte, key S, i int) []byte {
	dst = append(dst, key[:i]...)
	for i < len(key) {
		c := key[i]
		if c < utf8.RuneSelf {
			if !bare[c] {
				c = '_'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := decodeRune(key, i)
		if r == utf8.RuneError {
			dst = append(dst, '_')
		} else {
			dst = append(dst, key[i:i+size]...)
		}
		i += size
	}
	return dst
}

// appendDuration appends d as d.String() writes it, without allocating:
// "1h2m3.5s", "1.5ms", "0s".
func appendDuration(dst []byte, d time.Duration) []byte {
	u := uint64(d)
	if d < 0 {
		dst = append(dst, '-')
		u = -u // also right for math.MinInt64, as an unsigned value
	}
	switch {
	case u == 0:
		return append(dst, '0', 's')
	case u < uint64(time.Microsecond):
		dst = digits.AppendUint(dst, u)
		return append(dst, 'n', 's')
	case u < uint64(time.Millisecond):
		dst = appendFixed(dst, u, 3)
		return append(dst, "µs"...)
	case u < uint64(time.Second):
		dst = appendFixed(dst, u, 6)
		return append(dst, 'm', 's')
	}
	secs := u / uint64(time.Second)
	if h := secs / 3600; h > 0 {
		dst = digits.AppendUint(dst, h)
		dst = append(dst, 'h')
		dst = digits.AppendUint(dst, secs/60%60)
		dst = append(dst, 'm')
	} else if m := secs / 60; m > 0 {
		dst = digits.AppendUint(dst, m)
		dst = append(dst, 'm')
	}
	dst = appendFixed(dst, secs%60*uint64(time.Second)+u%uint64(time.Second), 9)
	return append(dst, 's')
}

// appendFixed appends v / 10^prec with the fraction's trailing zeros, and
// the point if nothing is left of it, removed.
func appendFixed(dst []byte, v uint64, prec int) []byte {
	pow := uint64(1)
	for range prec {
		pow *= 10
	}
	dst = digits.AppendUint(dst, v/pow)
	frac := v % pow
	if frac == 0 {
		return dst
	}
	for frac%10 == 0 {
		frac /= 10
		prec--
	}
	dst = append(dst, '.')
	return digits.AppendPadded(dst, frac, prec)
}
