// Command poolvet reports sync.Pool and poolkit pool misuse.
//
// Usage:
//
//	poolvet [-all] [analyzer flags] packages...
//	go vet -vettool=$(which poolvet) [-all] packages...
//
// By default poolvet runs every check that stays quiet on correct code;
// -all adds the opt-in checks (retention). See package
// github.com/poolkit/poolkit/poolvet for the list, and each analyzer's
// package for what it reports, with a bad and a good example.
package main

import (
	"os"

	"github.com/poolkit/poolkit/poolvet"
	"golang.org/x/tools/go/analysis/multichecker"
)

func main() {
	// The analyzer set must be known before multichecker parses flags,
	// so -all is taken out of the arguments here. (The analysis driver
	// registers -all itself as a no-op legacy vet flag, so go vet
	// -vettool forwards it to us.)
	all, args := takeAll(os.Args[1:])
	os.Args = append(os.Args[:1], args...)
	multichecker.Main(poolvet.Analyzers(all)...)
}

// takeAll removes -all (or --all, -all=true, -all=false) from args and
// reports whether it enables the opt-in checks.
func takeAll(args []string) (bool, []string) {
	all := false
	var rest []string
	for _, a := range args {
		switch a {
		case "-all", "--all", "-all=true", "--all=true":
			all = true
		case "-all=false", "--all=false":
			all = false
		default:
			rest = append(rest, a)
		}
	}
	return all, rest
}
