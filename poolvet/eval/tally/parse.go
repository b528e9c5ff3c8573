package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// diagnostic is one report in go vet's -json output.
type diagnostic struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// finding is one report, tied to its module and check.
type finding struct {
	module, check, posn, message string
}

// result is what one module's run gave.
type result struct {
	findings []finding
	errors   []string // output that is not a report: build and type errors
}

// parse reads go vet -json output: a stream of objects mapping package
// to analyzer to either a list of diagnostics or {"error": "..."}, mixed
// with whatever else go printed (package headers, build errors).
func parse(module, root string, r io.Reader) (result, error) {
	var res result
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	var obj bytes.Buffer
	depth := 0
	for sc.Scan() {
		line := sc.Text()
		if depth == 0 && !strings.HasPrefix(line, "{") {
			if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "# ") {
				res.errors = append(res.errors, line)
			}
			continue
		}
		obj.WriteString(line)
		obj.WriteByte('\n')
		depth += strings.Count(line, "{") - strings.Count(line, "}")
		// Braces inside strings could unbalance the count; go vet
		// indents its JSON, so an object ends at a line starting
		// with "}" (or is the one line "{}").
		if line == "{}" || strings.HasPrefix(line, "}") {
			depth = 0
		}
		if depth > 0 {
			continue
		}
		var pkgs map[string]map[string]json.RawMessage
		if err := json.Unmarshal(obj.Bytes(), &pkgs); err != nil {
			return res, fmt.Errorf("%s: %v in %q", module, err, obj.String())
		}
		obj.Reset()
		for pkg, byCheck := range pkgs {
			for check, raw := range byCheck {
				var ds []diagnostic
				if err := json.Unmarshal(raw, &ds); err != nil {
					var e struct{ Error string }
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						res.errors = append(res.errors, pkg+": "+check+": "+e.Error)
						continue
					}
					return res, fmt.Errorf("%s: %s: %s: %v", module, pkg, check, err)
				}
				for _, d := range ds {
					posn := d.Posn
					if rel, err := filepath.Rel(root, posn); err == nil && !strings.HasPrefix(rel, "..") {
						posn = rel
					}
					res.findings = append(res.findings, finding{module, check, posn, d.Message})
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	if obj.Len() > 0 {
		return res, fmt.Errorf("%s: output ends inside a JSON object", module)
	}
	// A file of a package and its test variant can be reported twice.
	slices.SortFunc(res.findings, func(a, b finding) int {
		return strings.Compare(a.posn+"\x00"+a.check+"\x00"+a.message, b.posn+"\x00"+b.check+"\x00"+b.message)
	})
	res.findings = slices.Compact(res.findings)
	return res, nil
}
