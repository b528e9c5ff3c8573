module github.com/poolkit/poolkit/benchmarks

go 1.26.0

require (
	github.com/NYTimes/gziphandler v1.1.1
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/go-sql-driver/mysql v1.9.3
	github.com/klauspost/compress v1.19.0
	github.com/libp2p/go-buffer-pool v0.1.0
	github.com/poolkit/poolkit v0.0.0
	github.com/rs/zerolog v1.34.0
	github.com/valyala/bytebufferpool v1.0.0
	go.uber.org/zap v1.27.0
)

require (
	filippo.io/edwards25519 v1.1.0 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.19 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/poolkit/poolkit => ../

tool golang.org/x/perf/cmd/benchstat
