// Package gzpool holds benchmarks that compare poolkit's gzpool with the
// standard library and with peer libraries: pooled compress/gzip against
// pooled github.com/klauspost/compress/gzip (the measurements gzpool's
// backend was chosen on), and gzpool.Handler against
// github.com/klauspost/compress/gzhttp and github.com/NYTimes/gziphandler.
//
// Reproduce the tables with
//
//	cd benchmarks && go test ./gzpool -run '^$' -bench . -benchtime=200ms -count=10 > gz.txt
//	benchstat -col /impl gz.txt
package gzpool
