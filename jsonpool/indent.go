package jsonpool

// appendIndent appends src, compact JSON as the fast path writes it
// (one value and a newline), to dst indented as json.Encoder's SetIndent
// does: a newline, prefix and one indent per level of nesting before each
// element and each closing bracket, a space after each colon, empty
// objects and arrays left as {} and [], no prefix before the first line,
// and the final newline kept.
func appendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // a { or [ was just written: indent before what follows unless it closes
	inString := false
	newline := func(dst []byte, depth int) []byte {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for i := 0; i < depth; i++ {
			dst = append(dst, indent...)
		}
		return dst
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, src[i])
			case '"':
				inString = false
			}
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newline(dst, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
