module github.com/poolkit/poolkit/poolvet/gclplugin

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/poolkit/poolkit v0.0.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.43.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
)

// The plugin builds against the poolvet of the checkout it sits in.
// A replace in a dependency's go.mod is ignored, so a golangci-lint
// built from a local path needs the same replace (see ci.sh).
replace github.com/poolkit/poolkit => ../..
