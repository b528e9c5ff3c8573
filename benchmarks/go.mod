module github.com/poolkit/poolkit/benchmarks

go 1.26.0

require (
	github.com/CAFxX/httpcompression v0.0.8
	github.com/NYTimes/gziphandler v1.1.1
	github.com/andybalholm/brotli v1.0.4
	github.com/go-chi/chi/v5 v5.5.0
	github.com/go-json-experiment/json v1.27.2
	github.com/go-sql-driver/mysql v1.10.1
	github.com/klauspost/compress v1.20.4
	github.com/libp2p/go-buffer-pool v0.1.0
	github.com/poolkit/poolkit v0.0.0
	github.com/rs/zerolog v1.35.1
	github.com/tsenart/vegeta/v12 v12.13.0
	github.com/valyala/bytebufferpool v1.0.0
	go.uber.org/zap v1.28.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.50.0
)

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/influxdata/tdigest v0.0.1 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rs/dnscache v0.0.0-20230804202142-fc85eb664529 // indirect
	github.com/stretchr/testify v1.9.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/net v0.59.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.42.0 // indirect
)

replace github.com/poolkit/poolkit => ../

tool golang.org/x/perf/cmd/benchstat
