package zstdblock

import (
	"encoding/binary"
	"math/bits"
)

// XXH64 primes, from the xxHash specification
// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md).
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// xxh64 returns the XXH64 hash of b with seed 0: a zstd frame's content
// checksum is its low 32 bits (RFC 8878, section 3.1.1).
func xxh64(b []byte) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		// The seed, 0, plus these, wrapping as the specification's
		// unsigned arithmetic does.
		p1 := prime1
		v1, v2, v3, v4 := p1+prime2, prime2, uint64(0), -p1
		for len(b) >= 32 {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(b[0:8]))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(b[8:16]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(b[16:24]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(b[24:32]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) +
			bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(h, v1)
		h = xxMerge(h, v2)
		h = xxMerge(h, v3)
		h = xxMerge(h, v4)
	} else {
		h = prime5
	}
	h += uint64(n)
	for ; len(b) >= 8; b = b[8:] {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b[:8]))
		h = bits.RotateLeft64(h, 27)*prime1 + prime4
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b[:4])) * prime1
		h = bits.RotateLeft64(h, 23)*prime2 + prime3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * prime5
		h = bits.RotateLeft64(h, 11) * prime1
	}
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

func xxRound(acc, lane uint64) uint64 {
	return bits.RotateLeft64(acc+lane*prime2, 31) * prime1
}

func xxMerge(h, v uint64) uint64 {
	return (h^xxRound(0, v))*prime1 + prime4
}
