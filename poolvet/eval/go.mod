module github.com/poolkit/poolkit/poolvet/eval

go 1.26.0

require github.com/poolkit/poolkit v0.0.0

require golang.org/x/tools v0.52.0 // indirect

// The evaluation scores the poolvet of the checkout it sits in.
replace github.com/poolkit/poolkit => ../..
