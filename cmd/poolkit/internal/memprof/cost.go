package memprof

import "bytes"

// parseCost estimates from above the bytes pprof's parser allocates to
// read data, a profile not compressed. The parser makes a struct for
// every message and a slice element for every number, so a few bytes of
// input can cost hundreds (a profile of empty samples, two bytes each,
// costs about 85 times its size): a limit on the input alone does not
// bound the memory. The estimate counts what the input holds, by kind,
// without decoding it.
func parseCost(data []byte) int64 {
	// The parser's fixed costs (the Profile, its maps, a bufio.Scanner's
	// buffer), and the strings copied out of the input.
	cost := 64<<10 + 2*int64(len(data))
	p, ok := protoCost(data)
	cost += p
	if !ok {
		// Not protobuf, after the part the parser read as such: the
		// legacy text formats, a sample per line and a location per
		// address.
		cost += 6*int64(len(data)) + 768*int64(bytes.Count(data, []byte("\n"))+1) + 192*int64(bytes.Count(data, []byte("0x")))
	}
	return cost
}

// Costs of one message of the profile's protobuf by its field number in
// the Profile message: the struct the parser makes, its place in a slice
// that doubled, and the maps and slices postDecode builds from it.
var messageCost = [...]int64{
	1:  128, // sample_type: ValueType
	2:  512, // sample: Sample, and the label maps postDecode makes
	3:  256, // mapping: Mapping
	4:  256, // location: Location
	5:  192, // function: Function
	6:  96,  // string_table: a string header in a doubling slice
	11: 128, // period_type
}

// nestedCost is what one message inside a sample or a location costs: a
// label (in a map of slices) or a line. varintCost is what a number
// outside a message costs (a comment: an element of a doubling slice and
// the string postDecode looks up for it), packedCost what a byte of a
// sample's packed numbers costs (location IDs: a uint64 in a doubling
// slice and a pointer), valueCost what a sample's number not packed
// costs.
const (
	nestedCost = 256
	varintCost = 128
	valueCost  = 48
	packedCost = 24
)

// protoCost walks data as the top level of a Profile message and adds up
// the costs of its messages, of the labels and lines inside samples and
// locations, and of sample's numbers. ok is false when data is not
// well-formed protobuf, and then the cost is of the part before the
// fault, which the parser reads before it gives up.
func protoCost(data []byte) (cost int64, ok bool) {
	ok = protoFields(data, func(field uint64, body []byte, delimited bool) {
		if !delimited {
			cost += varintCost
			return
		}
		if field < uint64(len(messageCost)) {
			cost += messageCost[field]
		}
		if field == 2 || field == 4 {
			// The labels of a sample, the lines of a location, and a
			// sample's packed location IDs and values.
			protoFields(body, func(inner uint64, b []byte, delimited bool) {
				switch {
				case field == 2 && (inner == 1 || inner == 2) && delimited:
					cost += packedCost * int64(len(b))
				case delimited:
					cost += nestedCost
				case field == 2:
					cost += valueCost // a sample's value, not packed
				}
			})
		}
	})
	return cost, ok
}

// protoFields calls f with the number of each field of the protobuf
// message data, and the contents of a length-delimited one, and reports
// whether data is well-formed to its end.
func protoFields(data []byte, f func(field uint64, body []byte, delimited bool)) bool {
	for len(data) > 0 {
		key, n := protoVarint(data)
		if n == 0 {
			return false
		}
		data = data[n:]
		var body []byte
		switch key & 7 {
		case 0:
			_, n = protoVarint(data)
		case 1:
			n = 8
		case 5:
			n = 4
		case 2:
			l, m := protoVarint(data)
			if m == 0 || l > uint64(len(data)-m) {
				return false
			}
			body, n = data[m:m+int(l)], m+int(l)
		default:
			return false
		}
		if n == 0 || n > len(data) {
			return false
		}
		f(key>>3, body, key&7 == 2)
		data = data[n:]
	}
	return true
}

// protoVarint decodes a varint and its length, 0 when b does not start
// with one.
func protoVarint(b []byte) (uint64, int) {
	var x uint64
	for i := 0; i < len(b) && i < 10; i++ {
		x |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}
