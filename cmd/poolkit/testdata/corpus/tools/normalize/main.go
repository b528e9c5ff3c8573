// Command normalize rewrites a heap profile for the corpus: the
// binary's path in its mappings becomes the binary's base name, so that
// no directory of the machine the profile was taken on remains, and it
// fails if any file name is still absolute (the binaries are built with
// -trimpath, which names a module's files "module@version/dir/file.go"
// and the standard library's "net/http/server.go").
//
//	normalize in.pb.gz out.pb.gz
package main

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/google/pprof/profile"
)

func main() {
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "normalize:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	p, err := profile.Parse(f)
	f.Close()
	if err != nil {
		return err
	}
	for _, m := range p.Mapping {
		m.File = path.Base(m.File)
	}
	for _, fn := range p.Function {
		if strings.HasPrefix(fn.Filename, "/") {
			return fmt.Errorf("%s: absolute file name %s: build with -trimpath", fn.Name, fn.Filename)
		}
	}
	p.Comments = nil
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := p.Write(w); err != nil {
		return err
	}
	return w.Close()
}
