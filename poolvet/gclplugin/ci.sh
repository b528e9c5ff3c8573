#!/bin/sh
# ci.sh builds a golangci-lint v2 with the poolvet plugin of this
# checkout, as golangci-lint custom does, and checks that it reports the
# misuses in testdata/fixture (the file:line list in want.txt) and
# nothing else. Only the Go module proxy is used: golangci-lint custom
# takes golangci-lint's source from git clone of its GitHub repository,
# so a git on PATH answers that one clone with the same version's source
# from the module proxy (go mod download); any other git command goes to
# the real git.
#
# Usage: poolvet/gclplugin/ci.sh   (GOLANGCI_LINT_VERSION picks the
# version, v2.15.0 by default; KEEP=1 keeps the scratch directory)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=${GOLANGCI_LINT_VERSION:-v2.15.0}
work=$(mktemp -d)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; else echo "scratch: $work"; fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod

echo "plugin tests"
(cd "$here" && go vet ./... && go test ./...)

echo "golangci-lint $version from the module proxy"
GOBIN=$work/bin go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"

mkdir "$work/shim"
realgit=$(command -v git || true)
cat >"$work/shim/git" <<SHIM
#!/bin/sh
# Serves "git clone --branch V ... https://github.com/golangci/golangci-lint.git"
# from the module proxy; passes anything else to the real git.
last= branch= prev=
for a in "\$@"; do
	[ "\$prev" = --branch ] && branch=\$a
	prev=\$a last=\$a
done
if [ "\$1" = clone ] && [ "\$last" = https://github.com/golangci/golangci-lint.git ] && [ -n "\$branch" ]; then
	src=\$(go mod download -json "github.com/golangci/golangci-lint/v2@\$branch" | sed -n 's/^	"Dir": "\(.*\)",\$/\1/p')
	[ -n "\$src" ] || exit 1
	cp -r "\$src" golangci-lint && chmod -R u+w golangci-lint
	exit
fi
[ -n "$realgit" ] || { echo "git: not installed" >&2; exit 1; }
exec "$realgit" "\$@"
SHIM
chmod +x "$work/shim/git"

# The plugin's go.mod replaces github.com/poolkit/poolkit by this
# checkout, but a dependency's replace is ignored; the second entry
# gives golangci-lint's go.mod the same replace (its import, poolvet, is
# one the plugin imports anyway).
cat >"$work/.custom-gcl.yml" <<YML
version: $version
name: custom-gcl
destination: $work/bin
plugins:
  - module: github.com/poolkit/poolkit/poolvet/gclplugin
    import: github.com/poolkit/poolkit/poolvet/gclplugin
    path: $here
  - module: github.com/poolkit/poolkit
    import: github.com/poolkit/poolkit/poolvet
    path: $repo
YML
echo "golangci-lint custom"
(cd "$work" && PATH=$work/shim:$PATH "$work/bin/golangci-lint" custom -v)

echo "custom-gcl run on testdata/fixture"
cp -r "$here/testdata/fixture" "$work/fixture"
cd "$work/fixture"
status=0
GOLANGCI_LINT_CACHE=$work/cache "$work/bin/custom-gcl" run --output.text.print-issued-lines=false ./... >"$work/out.txt" 2>&1 || status=$?
cat "$work/out.txt"
[ "$status" -eq 1 ] || { echo "FAIL: custom-gcl exited $status, want 1 (issues found)" >&2; exit 1; }
sed -n 's/^\([^:]*\.go:[0-9]*\):[0-9]*: .*(poolvet)$/\1/p' "$work/out.txt" | sort >"$work/got.txt"
if ! diff -u want.txt "$work/got.txt"; then
	echo "FAIL: the poolvet reports (+) differ from want.txt (-)" >&2
	exit 1
fi
echo "ok: custom-gcl reports poolvet's $(wc -l <want.txt) fixture misuses"
