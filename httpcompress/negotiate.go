package httpcompress

import "strings"

// coding is a content coding Handler can send.
type coding uint8

const (
	identity coding = iota
	codingGzip
	codingZstd
)

// String returns the coding's name as Content-Encoding spells it.
func (c coding) String() string {
	switch c {
	case codingGzip:
		return "gzip"
	case codingZstd:
		return "zstd"
	}
	return "identity"
}

// negotiate picks the coding for a response from the Accept-Encoding field
// values, by RFC 9110's q-values (section 12.5.3): coding names are
// case-insensitive; a coding named with q=0 is refused; "*" stands for
// every coding not named; a missing q means 1 and a malformed one 0. Of
// the codings enabled, the one with the highest q wins, zstd at equal q
// (it is cheaper and smaller); identity wins over both when the client
// names it with a higher q than theirs. No field, or one that admits no
// enabled coding, gives identity. It allocates nothing.
func negotiate(values []string, gzipOn, zstdOn bool) coding {
	// q-values in thousandths, -1 when the field does not name them.
	gzipQ, zstdQ, identityQ, starQ := -1, -1, -1, -1
	for _, v := range values {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			name, params, _ := strings.Cut(item, ";")
			name = strings.TrimSpace(name)
			switch {
			case strings.EqualFold(name, "zstd"):
				zstdQ = max(zstdQ, parseQ(params))
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				gzipQ = max(gzipQ, parseQ(params))
			case strings.EqualFold(name, "identity"):
				identityQ = max(identityQ, parseQ(params))
			case name == "*":
				starQ = max(starQ, parseQ(params))
			}
		}
	}
	if gzipQ < 0 {
		gzipQ = starQ
	}
	if zstdQ < 0 {
		zstdQ = starQ
	}
	if !gzipOn {
		gzipQ = -1
	}
	if !zstdOn {
		zstdQ = -1
	}
	best, q := identity, 0
	if zstdQ > q {
		best, q = codingZstd, zstdQ
	}
	if gzipQ > q {
		best, q = codingGzip, gzipQ
	}
	if best != identity && identityQ > q {
		return identity
	}
	return best
}

// parseQ returns the q-value, in thousandths, of the parameters after a
// coding name ("; q=0.5" gives 500). A missing q means 1000; a malformed
// one means 0, so that a coding is used only when the client clearly
// accepts it.
func parseQ(params string) int {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		return qValue(strings.TrimSpace(val))
	}
	return 1000
}

// qValue parses RFC 9110's qvalue: "0" or "1", optionally followed by a
// dot and up to three digits, 1 not exceeding 1.000.
func qValue(s string) int {
	if s == "" || (s[0] != '0' && s[0] != '1') {
		return 0
	}
	q := int(s[0]-'0') * 1000
	rest := s[1:]
	if rest == "" {
		return q
	}
	if rest[0] != '.' || len(rest) > 4 {
		return 0
	}
	scale := 100
	for _, c := range []byte(rest[1:]) {
		if c < '0' || c > '9' {
			return 0
		}
		q += int(c-'0') * scale
		scale /= 10
	}
	if q > 1000 {
		return 0
	}
	return q
}

// compressibleType reports whether a body of the media type ct (a
// Content-Type value) is worth compressing: not when it is compressed
// already, as images other than SVG, BMP and icons, audio, video, WOFF
// fonts and archives are. Comparison ignores case; parameters are ignored.
// It allocates nothing.
func compressibleType(ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	ct = strings.TrimSpace(ct)
	typ, sub, _ := strings.Cut(ct, "/")
	switch {
	case strings.EqualFold(typ, "image"):
		return strings.EqualFold(sub, "svg+xml") || strings.EqualFold(sub, "bmp") ||
			strings.EqualFold(sub, "x-icon") || strings.EqualFold(sub, "vnd.microsoft.icon")
	case strings.EqualFold(typ, "audio"), strings.EqualFold(typ, "video"):
		return false
	case strings.EqualFold(typ, "font"):
		return !strings.EqualFold(sub, "woff") && !strings.EqualFold(sub, "woff2")
	case strings.EqualFold(typ, "application"):
		for _, packed := range compressedSubtypes {
			if containsFold(sub, packed) {
				return false
			}
		}
	}
	return true
}

// compressedSubtypes are parts of application/ subtypes that name
// compressed formats: zip (also x-zip-compressed, epub+zip and the Office
// formats' zip containers are named otherwise and stay compressible),
// gzip, zstd, brotli, x-bzip2, x-xz, x-7z-compressed, x-rar-compressed,
// x-compress.
var compressedSubtypes = [...]string{"zip", "zstd", "brotli", "bzip", "x-xz", "7z", "rar", "compress"}

// containsFold reports whether s contains sub, ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
