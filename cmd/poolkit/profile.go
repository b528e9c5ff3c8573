package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/profallocs"
)

// profileConfig is poolkit allocs -profile's parsed command line.
type profileConfig struct {
	profallocs.Config
	top    int
	format string // "text" or "json"
}

// defaultProfileTop is -top's default with -profile.
const defaultProfileTop = 15

// hasProfileFlag reports whether args, before any "--", hold -profile.
func hasProfileFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-profile" || a == "--profile" || strings.HasPrefix(a, "-profile=") || strings.HasPrefix(a, "--profile=") {
			return true
		}
	}
	return false
}

func parseProfileFlags(args []string, stderr io.Writer) (*profileConfig, error) {
	fs := newFlagSet("poolkit allocs -profile", stderr, []string{
		"usage: poolkit allocs -profile source [-seconds n] [-top n] [-format text|json] [-save file] [-user prefixes]",
	}, []string{
		"Lists the allocation sites of a running service, by allocations per second, with the first frame",
		"in your code and the poolkit package that removes the allocation where one applies.",
	})
	source := fs.String("profile", "", "read the memory profile at `source`: a pprof file (gzipped or not) or the http(s) URL of a net/http/pprof allocs or heap endpoint")
	seconds := fs.Int("seconds", 10, "for a URL, take a delta profile over `n` seconds; for a file that records no duration, the span it covers")
	top := fs.Int("top", defaultProfileTop, "show the `n` sites that allocate most; 0 shows all")
	format := fs.String("format", "text", "output `format`: text or json")
	save := fs.String("save", "", "also write the profile fetched from a URL to `file`, to read again later with -profile")
	limitMiB := fs.Int64("max-profile-mib", memprof.DefaultLimit>>20, "read at most `MiB` of profile, compressed and decompressed alike: "+
		"a gzipped file or answer that inflates past it is refused before it fills the memory")
	user := fs.String("user", "", "comma-separated package path `prefixes` that are your code (\"main\" for package main); "+
		"default: the packages built from a working tree, or when every file is from the module cache, the module of package main "+
		"(the report says which)")
	sortBy := fs.String("sort", "allocs", "rank the sites by `allocs` or bytes")
	if wantsHelp(args) {
		// Before parsing, so that "-profile -h" is not a file named -h.
		fs.Usage()
		return nil, flag.ErrHelp
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if strings.HasPrefix(*source, "-") {
		return nil, fmt.Errorf("-profile needs a file or a URL, got the flag %q", *source)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("-profile takes no packages, got %q", fs.Args())
	}
	cfg := &profileConfig{Config: profallocs.Config{Source: *source, Seconds: *seconds, Save: *save, Limit: *limitMiB << 20,
		SortBy: *sortBy}, top: *top, format: *format}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "seconds" {
			cfg.SecondsSet = true
		}
	})
	switch {
	case cfg.Source == "":
		return nil, errors.New("-profile needs a file or a URL")
	case cfg.Seconds < 1:
		return nil, fmt.Errorf("-seconds must be at least 1, got %d", cfg.Seconds)
	case cfg.top < 0:
		return nil, fmt.Errorf("-top must not be negative, got %d", cfg.top)
	case *limitMiB < 1 || *limitMiB > 1<<20:
		return nil, fmt.Errorf("-max-profile-mib must be between 1 and %d, got %d", 1<<20, *limitMiB)
	case cfg.format != "text" && cfg.format != "json":
		return nil, fmt.Errorf("-format must be text or json, got %q", cfg.format)
	case cfg.SortBy != "allocs" && cfg.SortBy != "bytes":
		return nil, fmt.Errorf("-sort must be allocs or bytes, got %q", cfg.SortBy)
	}
	if *user != "" {
		for _, p := range strings.Split(*user, ",") {
			if p = strings.TrimSpace(p); p != "" {
				cfg.User.Prefixes = append(cfg.User.Prefixes, p)
			}
		}
	}
	return cfg, nil
}

// wantsHelp reports whether args, before any "--", ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
}

// profileOnlyFlags are the flags that mean something only with -profile.
var profileOnlyFlags = []string{"seconds", "format", "save", "user", "sort", "max-profile-mib"}

// profileOnlyFlag returns the first flag in args, before any "--", that
// applies only with -profile, "" if there is none.
func profileOnlyFlag(args []string) string {
	for _, a := range args {
		if a == "--" {
			return ""
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		for _, f := range profileOnlyFlags {
			if name == f {
				return "-" + f
			}
		}
	}
	return ""
}

func runAllocsProfile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseProfileFlags(args, stderr)
	if err != nil {
		return usageStatus(stderr, "poolkit allocs", err)
	}
	rep, err := profallocs.Read(ctx, cfg.Config, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "poolkit allocs: %v\n", err)
		return 1
	}
	bw := bufio.NewWriter(stdout)
	if cfg.format == "json" {
		var j []byte
		if j, err = json.MarshalIndent(rep.JSON(cfg.top), "", "  "); err == nil {
			// A profile's names are a stranger's text: nothing of it
			// reaches a terminal that shows the JSON as a command.
			bw.Write(profallocs.EscapeJSON(append(j, '\n')))
		}
	} else {
		rep.WriteText(bw, cfg.top)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "poolkit allocs: writing the report: %v\n", err)
		return 1
	}
	return 0
}
