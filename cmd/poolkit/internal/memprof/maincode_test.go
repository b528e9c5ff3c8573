package memprof

import (
	"strings"
	"testing"
)

// TestMainCode checks what is taken for the program's own code, from the
// file names a profile gives.
func TestMainCode(t *testing.T) {
	for _, c := range []struct {
		name   string
		stacks [][]Frame
		want   []string
		why    string
	}{
		{"working tree, -trimpath", [][]Frame{
			stack("github.com/Masterminds/sprig/v3.init.func1 github.com/!masterminds/sprig/v3@v3.3.0/functions.go:1",
				"example.com/svc/api.(*S).get example.com/svc/api/get.go:9", "net/http.(*conn).serve net/http/server.go:1"),
		}, []string{"example.com/svc/api", "main"}, "built from a working tree"},
		{"working tree, absolute", [][]Frame{
			stack("github.com/Masterminds/sprig/v3.init.func1 /root/go/pkg/mod/github.com/!masterminds/sprig/v3@v3.3.0/functions.go:1",
				"example.com/svc/api.(*S).get /home/u/svc/api/get.go:9", "net/http.(*conn).serve /usr/lib/go/src/net/http/server.go:1"),
		}, []string{"example.com/svc/api", "main"}, "built from a working tree"},
		{"go install, main allocates", [][]Frame{
			stack("github.com/Masterminds/sprig/v3.init.func1 github.com/!masterminds/sprig/v3@v3.3.0/functions.go:1",
				"github.com/caddyserver/caddy/v2/modules/caddyhttp.(*Server).ServeHTTP github.com/caddyserver/caddy/v2@v2.10.0/modules/caddyhttp/server.go:1"),
			stack("main.main github.com/caddyserver/caddy/v2@v2.10.0/cmd/caddy/main.go:3"),
		}, []string{"github.com/caddyserver/caddy/v2", "main"}, "the module of package main"},
		{"go install, generic code of the standard library", [][]Frame{
			stack("github.com/caddyserver/caddy/v2/modules/caddyhttp.RouteList.Compile.Backward[...].func2 slices/iter.go:1",
				"github.com/caddyserver/caddy/v2/modules/caddyhttp.(*Server).ServeHTTP github.com/caddyserver/caddy/v2@v2.10.0/modules/caddyhttp/server.go:1"),
		}, []string{"github.com/caddyserver/caddy/v2", "main"}, "the module outermost"},
		{"go install, outermost", [][]Frame{
			stack("github.com/Masterminds/sprig/v3.init.func1 github.com/!masterminds/sprig/v3@v3.3.0/functions.go:1",
				"github.com/caddyserver/caddy/v2/modules/caddyhttp.(*Server).ServeHTTP github.com/caddyserver/caddy/v2@v2.10.0/modules/caddyhttp/server.go:1",
				"net/http.(*conn).serve net/http/server.go:1"),
		}, []string{"github.com/caddyserver/caddy/v2", "main"}, "the module outermost"},
		{"no files", [][]Frame{stack("example.com/x.F :0")}, nil, "names no files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Profile{}
			for _, st := range c.stacks {
				p.Samples = append(p.Samples, Sample{Stack: st, Objects: 1, Bytes: 8})
			}
			u, why := p.MainCode()
			if strings.Join(u.Prefixes, ",") != strings.Join(c.want, ",") || !strings.Contains(why, c.why) {
				t.Errorf("%q, %q", u.Prefixes, why)
			}
			if len(c.want) > 0 && u.Is("github.com/Masterminds/sprig/v3.init.func1") {
				t.Error("sprig taken for the program's own")
			}
		})
	}
	for file, want := range map[string]string{
		"github.com/!burnt!sushi/toml@v1.4.0/decode.go":                   "github.com/BurntSushi/toml",
		"/root/go/pkg/mod/github.com/!burnt!sushi/toml@v1.4.0/decode.go":  "github.com/BurntSushi/toml",
		"/srv/modcache/github.com/nats-io/nats-server/v2@v2.15.2/main.go": "github.com/nats-io/nats-server/v2",
		"/home/u/src/example.com/svc/api/get.go":                          "",
		"example.com/svc/api/get.go":                                      "",
	} {
		if mod, ok := fileModule(file); mod != want || ok != (want != "") {
			t.Errorf("fileModule(%q) = %q, %v; want %q", file, mod, ok, want)
		}
	}
}
