module github.com/poolkit/poolkit

go 1.24.0

require (
	github.com/go-logfmt/logfmt v0.6.1
	github.com/go-sql-driver/mysql v1.9.3
	github.com/google/pprof v0.0.0-20250403155104-27863c87afa6
	github.com/klauspost/compress v1.19.0
	golang.org/x/tools v0.42.0
)

require (
	filippo.io/edwards25519 v1.1.0 // indirect
	golang.org/x/mod v0.33.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
)
