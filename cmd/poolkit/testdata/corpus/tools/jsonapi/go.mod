module example.com/jsonapi

go 1.26.0

require github.com/mccutchen/go-httpbin/v2 v2.26.0
