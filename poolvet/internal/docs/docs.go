// Package docs extracts an analyzer's documentation from its doc.go.
//
// It works the way golang.org/x/tools/go/analysis/passes do: the package
// comment holds a heading "# Analyzer name", and the text under it is the
// analyzer's Doc.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the text under "# Analyzer name" in the package comment
// of the Go source content, with its first line (the title) first. It panics
// when the heading is missing, which a test of the analyzer would catch
// at once: the doc is a compile-time constant.
func Extract(content, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(fmt.Sprintf("docs: parsing doc.go of %s: %v", name, err))
	}
	if f.Doc == nil {
		panic(fmt.Sprintf("docs: doc.go of %s has no package comment", name))
	}
	return extract(f.Doc, name)
}

func extract(doc *ast.CommentGroup, name string) string {
	text := doc.Text()
	heading := "# Analyzer " + name
	i := strings.Index(text, heading+"\n")
	if i < 0 {
		panic(fmt.Sprintf("docs: no %q heading in doc.go", heading))
	}
	body := text[i+len(heading)+1:]
	if j := strings.Index(body, "\n# "); j >= 0 {
		body = body[:j]
	}
	return strings.TrimSpace(body)
}
