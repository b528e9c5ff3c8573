package gclplugin

import (
	"slices"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/poolkit/poolkit/poolvet"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	slices.Sort(ns)
	return ns
}

func build(t *testing.T, settings any) []*analysis.Analyzer {
	t.Helper()
	newPlugin, err := register.GetPlugin("poolvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(settings)
	if err != nil {
		t.Fatalf("settings %v: %v", settings, err)
	}
	if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", m, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	return as
}

func TestSettings(t *testing.T) {
	def := names(poolvet.Default())
	all := names(append(poolvet.Default(), poolvet.OptIn()...))
	if len(all) == len(def) {
		t.Fatal("poolvet has no opt-in check to test -all with")
	}
	for _, tc := range []struct {
		settings any
		want     []string
	}{
		{nil, def},
		{map[string]any{}, def},
		{map[string]any{"all": false}, def},
		{map[string]any{"all": true}, all},
	} {
		if got := names(build(t, tc.settings)); !slices.Equal(got, tc.want) {
			t.Errorf("settings %v: analyzers %v, want %v", tc.settings, got, tc.want)
		}
	}
}

func TestUnknownSetting(t *testing.T) {
	for _, s := range []any{map[string]any{"al": true}, map[string]any{"all": "yes"}} {
		if _, err := New(s); err == nil {
			t.Errorf("New(%v) accepted a setting poolvet does not have", s)
		}
	}
}

// TestReports runs the nonptrput analyzer the plugin gives golangci-lint
// over a misuse: it is reported, and the //poolvet:ignore comment is
// honoured.
func TestReports(t *testing.T) {
	for _, a := range build(t, nil) {
		if a.Name == "nonptrput" {
			analysistest.Run(t, analysistest.TestData(), a, "a")
			return
		}
	}
	t.Fatal("the plugin has no nonptrput analyzer")
}
