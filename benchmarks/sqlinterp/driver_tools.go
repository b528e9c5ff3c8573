//go:build tools

package sqlinterp

// compare.sh builds go-sql-driver/mysql's own test binary from the module
// cache, at the version this module requires. This import, never built,
// keeps that requirement in go.mod through go mod tidy.
import _ "github.com/go-sql-driver/mysql"
