package memprof

import (
	"strconv"
	"strings"
	"testing"
)

// stack builds a stack innermost first from "func file:line" strings.
func stack(frames ...string) []Frame {
	var out []Frame
	for _, f := range frames {
		fn, loc, _ := strings.Cut(f, " ")
		file, line, _ := strings.Cut(loc, ":")
		n, _ := strconv.ParseInt(line, 10, 64)
		out = append(out, Frame{fn, file, n})
	}
	return out
}

// TestAdvice checks the rules on stacks as runtime/pprof writes them
// (runtime frames at the top hidden), with source lines for the rules
// that read them.
func TestAdvice(t *testing.T) {
	src := map[string]string{
		"app.go:10": "\tp.Put(buf)",
		"app.go:20": "\tout = append(out, x)",
		"app.go:30": "\tv := &T{}",
		"app.go:40": "\tq := \"SELECT * FROM t WHERE id = \" + id",
		"app.go:50": "\tname := first + \" \" + last",
		"app.go:60": "\tvar buf bytes.Buffer",
		"app.go:70": "\tq := fmt.Sprintf(\"SELECT name FROM users WHERE id = %d\", id)",
	}
	lines := func(file string, n int64) (string, bool) {
		l, ok := src[file+":"+strconv.FormatInt(n, 10)]
		return l, ok
	}
	for _, c := range []struct {
		name    string
		stack   []Frame
		size    int64
		src     bool
		pkg     string
		allocIn string
	}{
		{"gzip reader", stack("compress/flate.NewReader x:1", "compress/gzip.(*Reader).Reset x:2", "compress/gzip.NewReader x:3", "main.h app.go:1"), 64, true, "gzpool", "compress/flate.NewReader"},
		{"klauspost writer", stack("github.com/klauspost/compress/flate.NewWriter x:1", "main.h app.go:1"), 64, true, "gzpool", "github.com/klauspost/compress/flate.NewWriter"},
		{"json encoder", stack("encoding/json.(*Encoder).Encode x:1", "main.h app.go:1"), 64, true, "jsonpool", "encoding/json.(*Encoder).Encode"},
		{"log.Printf", stack("fmt.Sprintf x:1", "log.Printf x:2", "main.h app.go:1"), 64, true, "logfmt", "fmt.Sprintf"},
		{"time.Format", stack("time.Time.Format x:1", "main.h app.go:1"), 32, true, "logfmt or bytebuf", "time.Time.Format"},
		{"strings.Builder", stack("strings.(*Builder).grow x:1", "strings.(*Builder).WriteString x:2", "main.h app.go:1"), 64, true, "bytebuf", "strings.(*Builder).grow"},
		{"put box", stack("main.h app.go:10"), 24, true, "slicepool or pool", "main.h"},
		// Without the source, 24-byte objects are no proof of a boxed
		// slice header: no guess.
		{"put box, no source", stack("main.h other.go:10"), 24, false, "", "main.h"},
		{"append", stack("main.h app.go:20"), 128, true, "slicepool", "main.h"},
		{"new object", stack("main.h app.go:30"), 48, true, "", "main.h"},
		{"concat query", stack("main.h app.go:40"), 48, true, "sqlinterp", "main.h"},
		{"concat", stack("main.h app.go:50"), 48, true, "bytebuf", "main.h"},
		{"buffer per call", stack("main.h app.go:60"), 48, true, "bytebuf", "main.h"},
		{"query by Sprintf", stack("fmt.Sprintf x:1", "main.h app.go:70"), 48, true, "sqlinterp", "fmt.Sprintf"},
		{"Sprintf", stack("fmt.Sprintf x:1", "main.h app.go:1"), 48, true, "logfmt or bytebuf", "fmt.Sprintf"},
		{"inside poolkit", stack("github.com/poolkit/poolkit/bytebuf.(*Pool).Get x:1", "main.h app.go:1"), 64, true, "", "github.com/poolkit/poolkit/bytebuf.(*Pool).Get"},
		// A gzip writer that a json.Encoder's first Write starts: the
		// writer's, not encoding/json's.
		{"gzip under json.Encode", stack("compress/flate.NewWriter x:1", "compress/gzip.(*Writer).Write x:2",
			"main.(*gzw).Write app.go:3", "encoding/json.(*Encoder).Encode x:4", "example.com/lib.WriteJSON x:5", "main.h app.go:1"),
			1 << 20, true, "gzpool", "compress/flate.NewWriter"},
		// The standard library's own calls are not the user's to change.
		{"time.Format in net/http", stack("time.Time.Format x:1", "net/http.(*response).WriteHeader x:2", "main.h app.go:1"), 32, true, "", "time.Time.Format"},
		{"Builder in net/url", stack("strings.(*Builder).grow x:1", "strings.(*Builder).WriteString x:2", "net/url.(*URL).String x:3", "main.h app.go:1"),
			64, true, "", "strings.(*Builder).grow"},
		{"Builder sized by Grow", stack("strings.(*Builder).grow x:1", "strings.(*Builder).Grow x:2", "main.h app.go:1"), 64, true, "", "strings.(*Builder).grow"},
		// fmt's printer pool is part of fmt; the program's own pool's
		// misses are not a reason for another pool.
		{"fmt's own pool", stack("fmt.init.func1 x:1", "sync.(*Pool).Get x:2", "fmt.newPrinter x:3", "fmt.Sprintf x:4", "main.h app.go:1"),
			200, true, "logfmt or bytebuf", "fmt.init.func1"},
		{"the program's pool", stack("compress/gzip.NewWriterLevel x:1", "main.init.func1 app.go:2", "sync.(*Pool).Get x:2", "main.h app.go:1"),
			1 << 20, true, "", "compress/gzip.NewWriterLevel"},
		{"a dependency's pooled gzip writers", stack("compress/flate.NewWriter x:1", "compress/gzip.NewWriterLevel x:2",
			"github.com/klauspost/compress/gzhttp.init.func1 x:3", "sync.(*Pool).Get x:4",
			"github.com/klauspost/compress/gzhttp.(*GzipResponseWriter).startGzip x:5", "main.h app.go:1"),
			1 << 20, true, "", "compress/flate.NewWriter"},
		{"fmt.Fprintf into a Buffer", stack("bytes.growSlice x:1", "bytes.(*Buffer).Write x:2", "fmt.Fprintf x:3", "main.h app.go:1"), 64, true, "bytebuf", "bytes.growSlice"},
		{"a dependency's json", stack("encoding/json.Marshal x:1", "github.com/gin-gonic/gin/render.JSON.Render x:2", "main.h app.go:1"), 64, true, "", "encoding/json.Marshal"},
		// A buffer a dependency grows is the dependency's.
		{"third party in between", stack("bytes.growSlice x:1", "github.com/gin-gonic/gin.(*Context).Render x:2", "main.h app.go:1"), 64, true, "", "bytes.growSlice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Profile{Samples: []Sample{{Stack: c.stack, Objects: 1000, Bytes: 1000 * c.size}}}
			var f func(string, int64) (string, bool)
			if c.src {
				f = lines
			}
			sites := p.Sites(UserCode{}, f)
			if len(sites) != 1 {
				t.Fatalf("%d sites", len(sites))
			}
			s := sites[0]
			if s.Advice.Package != c.pkg || s.AllocIn != c.allocIn || (s.User.Func != "main.h" && s.User.Func != "main.init.func1" &&
				s.User.Func != "main.(*gzw).Write") || !s.IsUser {
				t.Errorf("package %q (want %q), alloc in %q (want %q), user %v %v; advice %q",
					s.Advice.Package, c.pkg, s.AllocIn, c.allocIn, s.User, s.IsUser, s.Advice.Text)
			}
			if c.pkg == "" && !strings.HasPrefix(s.Advice.Text, "no rule") {
				t.Errorf("advice %q does not say no rule", s.Advice.Text)
			}
		})
	}
}

// TestAdviceShare checks that a pattern covering a small part of a site
// does not name a package for it, and that the shares are reported.
func TestAdviceShare(t *testing.T) {
	tmpl := "text/template.(*Template).Parse x:9"
	p := &Profile{Samples: []Sample{
		{Stack: stack("strings.genSplit x:1", "main.h app.go:1"), Objects: 10, Bytes: 10 * 48},
		{Stack: stack("text/template/parse.(*Tree).newList x:2", "text/template/parse.Parse x:3", tmpl, "main.h app.go:1"), Objects: 200, Bytes: 200 * 64},
		{Stack: stack("bytes.growSlice x:1", "bytes.(*Buffer).WriteString x:2", "main.h app.go:1"), Objects: 30, Bytes: 30 * 512},
	}}
	s := p.Sites(UserCode{}, nil)[0]
	if s.Advice.Package != "" || !strings.HasPrefix(s.Advice.Text, "no rule: allocated inside text/template/parse.(*Tree).newList") {
		t.Errorf("advice %+v", s.Advice)
	}
	if b, o := s.Advice.BytesShare, s.Advice.ObjectsShare; o < 0.83 || o > 0.84 || b < 0.44 || b > 0.45 {
		t.Errorf("shares %.3f of bytes, %.3f of objects", b, o)
	}
	// A Buffer of the user's that holds most bytes but few objects: the
	// mean share decides, under one half here, so no package.
	p.Samples[2].Bytes = 30 * 2048
	s = p.Sites(UserCode{}, nil)[0]
	if s.Advice.Package != "" {
		t.Errorf("advice %+v", s.Advice)
	}
	// The largest pattern, but under half of the site.
	q := &Profile{Samples: []Sample{
		{Stack: stack("bytes.growSlice x:1", "bytes.(*Buffer).WriteString x:2", "main.h app.go:1"), Objects: 40, Bytes: 40 * 100},
		{Stack: stack("net/url.parse x:1", "main.h app.go:1"), Objects: 30, Bytes: 30 * 100},
		{Stack: stack("main.h app.go:1"), Objects: 30, Bytes: 30 * 100},
	}}
	s = q.Sites(UserCode{}, nil)[0]
	if s.Advice.Package != "" || !strings.HasPrefix(s.Advice.Text, "no rule for most of this site: the largest pattern, "+
		"a bytes.Buffer growing, covers only 40% of its bytes and 40% of its objects (bytebuf: ") {
		t.Errorf("advice %+v", s.Advice)
	}
	p.Samples[2].Objects = 150
	s = p.Sites(UserCode{}, nil)[0]
	if s.Advice.Package != "bytebuf" || s.Advice.BytesShare < 0.8 {
		t.Errorf("advice %+v", s.Advice)
	}
}

// TestSitesGroupByUserLine checks that allocations under one line of the
// user's code make one site, named for the function that allocated most,
// and that stacks with no user frame keep their outermost frame.
func TestSitesGroupByUserLine(t *testing.T) {
	p := &Profile{Samples: []Sample{
		{Stack: stack("compress/flate.NewWriter x:1", "compress/gzip.(*Writer).Write x:2", "main.h app.go:5", "main.main app.go:9"), Objects: 300, Bytes: 300 << 20},
		{Stack: stack("compress/gzip.NewWriterLevel x:3", "main.h app.go:5", "main.main app.go:9"), Objects: 100, Bytes: 100 << 7},
		{Stack: stack("net/http.(*conn).readRequest x:4", "net/http.(*conn).serve x:5"), Objects: 700, Bytes: 700 << 6},
	}}
	sites := p.Sites(UserCode{}, nil)
	if len(sites) != 2 {
		t.Fatalf("%d sites: %+v", len(sites), sites)
	}
	if s := sites[0]; s.IsUser || s.User.Func != "net/http.(*conn).serve" || s.Objects != 700 || s.Advice.Package != "" {
		t.Errorf("first site %+v", s)
	}
	s := sites[1]
	if s.User != (Frame{"main.h", "app.go", 5}) || s.Objects != 400 || s.AllocIn != "compress/flate.NewWriter" ||
		len(s.AlsoIn) != 1 || s.AlsoIn[0] != "compress/gzip.NewWriterLevel" || s.Advice.Package != "gzpool" {
		t.Errorf("second site %+v", s)
	}
}

// TestSitesMerge checks that lines of one function fixed by the same
// advice make one site, and that other advice and other functions do not
// join it.
func TestSitesMerge(t *testing.T) {
	p := &Profile{Samples: []Sample{
		{Stack: stack("compress/gzip.NewWriterLevel x:1", "main.h app.go:5"), Objects: 100, Bytes: 100 << 7},
		{Stack: stack("compress/flate.NewWriter x:2", "compress/gzip.(*Writer).Write x:3", "main.h app.go:6"), Objects: 300, Bytes: 300 << 20},
		{Stack: stack("compress/flate.NewWriter x:2", "compress/gzip.(*Writer).Write x:3", "main.h app.go:8"), Objects: 50, Bytes: 50 << 20},
		{Stack: stack("bytes.growSlice x:4", "main.h app.go:7"), Objects: 70, Bytes: 70 << 10},
		{Stack: stack("compress/gzip.NewWriterLevel x:1", "main.g app.go:20"), Objects: 10, Bytes: 10 << 7},
		{Stack: stack("sync.(*Pool).pinSlow x:5", "encoding/json.Marshal x:6", "main.g app.go:20"), Objects: 1, Bytes: 1 << 20},
		{Stack: stack("main.f app.go:30"), Objects: 5, Bytes: 5 << 5},
	}}
	sites := p.Sites(UserCode{}, nil)
	if len(sites) != 4 {
		t.Fatalf("%d sites: %+v", len(sites), sites)
	}
	s := sites[0]
	if s.User.Line != 6 || s.Objects != 450 || s.Advice.Package != "gzpool" ||
		len(s.OtherLines) != 2 || s.OtherLines[0] != 5 || s.OtherLines[1] != 8 ||
		s.AllocIn != "compress/flate.NewWriter" || len(s.AlsoIn) != 1 {
		t.Errorf("merged site %+v", s)
	}
	if s := sites[1]; s.User.Line != 7 || s.Advice.Package != "bytebuf" || len(s.OtherLines) != 0 {
		t.Errorf("second site %+v", s)
	}
	if s := sites[2]; s.User.Func != "main.g" || len(s.OtherLines) != 0 || s.AllocIn != "compress/gzip.NewWriterLevel" {
		t.Errorf("third site %+v: sync.Pool's own array is not what allocates here", s)
	}
	if s := sites[3]; s.User.Func != "main.f" || s.AllocIn != "main.f" || s.Advice.Text != "no rule: the line itself allocates "+
		"(a value moved to the heap, a closure, a conversion); go build -gcflags=-m says why" {
		t.Errorf("fourth site %+v", s)
	}
}

func TestAdviceCoverage(t *testing.T) {
	for _, c := range []struct {
		a    Advice
		want string
	}{
		{Advice{BytesShare: 1, ObjectsShare: 1}, ""},
		{Advice{BytesShare: 0.996, ObjectsShare: 0.999}, ""},
		{Advice{BytesShare: 0.6, ObjectsShare: 1}, " (for 60% of the bytes, 100% of the allocations)"},
		{Advice{BytesShare: 1, ObjectsShare: 0.994}, " (for 100% of the bytes, 99% of the allocations)"},
		{Advice{}, " (for 0% of the bytes, 0% of the allocations)"},
	} {
		if got := c.a.Coverage(); got != c.want {
			t.Errorf("%+v.Coverage() = %q, want %q", c.a, got, c.want)
		}
	}
}
