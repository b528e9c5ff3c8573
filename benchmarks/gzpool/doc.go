// Package gzpool holds benchmarks that compare poolkit's compression with
// the standard library and with peer libraries: pooled compress/gzip
// against pooled github.com/klauspost/compress/gzip (the measurements
// gzpool's backend was chosen on), and the httpcompress middleware against
// github.com/klauspost/compress/gzhttp (zstd on, its default) and
// github.com/NYTimes/gziphandler, with a browser's Accept-Encoding and
// with gzip alone.
//
// Reproduce the tables with
//
//	cd benchmarks && go test ./gzpool -run '^$' -bench . -benchtime=200ms -count=10 > gz.txt
//	benchstat -col /impl gz.txt
//
// or, interleaved, sh benchmarks/gzpool/bench.sh 'Handler$' gz.txt; and
// the instruction counts, which do not depend on the machine's load, with
// sh benchmarks/gzpool/instructions.sh.
package gzpool
