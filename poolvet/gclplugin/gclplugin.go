// Package gclplugin registers poolvet's analyzers as a golangci-lint v2
// module plugin named "poolvet", for a golangci-lint binary built with
// golangci-lint custom.
//
// The plugin is its own module, so poolkit's module does not depend on
// golangci-lint's plugin API. To build golangci-lint with it, put a
// .custom-gcl.yml beside the project's go.mod:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/poolkit/poolkit/poolvet/gclplugin
//	    import: github.com/poolkit/poolkit/poolvet/gclplugin
//	    version: latest
//
// run golangci-lint custom (it writes ./custom-gcl), and enable the
// linter in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - poolvet
//	  settings:
//	    custom:
//	      poolvet:
//	        type: module
//	        description: sync.Pool and poolkit pool misuse
//	        settings:
//	          all: false # true adds the opt-in checks (retention)
//
// then run ./custom-gcl run ./... as golangci-lint. Reports are tagged
// (poolvet); //poolvet:ignore and golangci-lint's //nolint:poolvet both
// silence one.
//
// golangci-lint custom fetches golangci-lint's own source with git
// clone from GitHub. ci.sh in this directory builds the same binary from
// a local checkout of poolkit with only the Go module proxy, and checks
// that it reports a known misuse in testdata/fixture.
package gclplugin

import (
	"github.com/golangci/plugin-module-register/register"
	"github.com/poolkit/poolkit/poolvet"
	"golang.org/x/tools/go/analysis"
)

func init() { register.Plugin("poolvet", New) }

// Settings are the plugin's settings in .golangci.yml, under
// linters.settings.custom.poolvet.settings.
type Settings struct {
	// All adds the opt-in checks (poolvet.OptIn) to the default ones,
	// as poolvet -all does.
	All bool `json:"all"`
}

// New returns the plugin for the settings golangci-lint decoded from
// .golangci.yml (nil when there are none). An unknown setting is an
// error, so a misspelt one is not silently ignored.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, err
	}
	return plugin{s}, nil
}

type plugin struct{ settings Settings }

// BuildAnalyzers returns poolvet's analyzers, with the //poolvet:ignore
// directive honoured.
func (p plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return poolvet.Analyzers(p.settings.All), nil
}

// GetLoadMode asks for type information: every check needs it.
func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
