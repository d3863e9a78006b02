#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build benchstat (golang.org/x/perf/cmd/benchstat) for bench/scale.sh and
# tests/reference/styles/make_fixtures.sh from local checkouts, offline,
# with Debian's Go (apt-get install golang-go; 1.19 builds it):
#
#   PERF_SRC      a checkout of github.com/golang/perf (the fixtures were
#                 made at commit 71ba5bc8ccce)
#   MOREMATH_SRC  a checkout of github.com/aclements/go-moremath at the
#                 version x/perf's go.mod requires (f10218a38794)
#
# The packages benchstat needs are copied into a scratch module whose
# go.mod says go 1.19 and points go-moremath at the checkout with a
# replace line, so that neither the module proxy nor a newer toolchain is
# asked for.
#
# usage: PERF_SRC=DIR MOREMATH_SRC=DIR bench/build-benchstat.sh OUTPUT
set -euo pipefail
out=${1:?usage: PERF_SRC=DIR MOREMATH_SRC=DIR bench/build-benchstat.sh OUTPUT}
: "${PERF_SRC:?a checkout of github.com/golang/perf}"
: "${MOREMATH_SRC:?a checkout of github.com/aclements/go-moremath}"
command -v go >/dev/null || { echo "build-benchstat.sh: go not found (apt-get install golang-go)" >&2; exit 3; }
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/perf/cmd" "$work/moremath"
cp -r "$PERF_SRC/cmd/benchstat" "$work/perf/cmd/"
for pkg in benchfmt benchmath benchproc benchunit; do
	cp -r "$PERF_SRC/$pkg" "$work/perf/"
done
for pkg in stats mathx vec; do
	cp -r "$MOREMATH_SRC/$pkg" "$work/moremath/"
done
printf 'module github.com/aclements/go-moremath\n\ngo 1.12\n' >"$work/moremath/go.mod"
cat >"$work/perf/go.mod" <<'EOF'
module golang.org/x/perf

go 1.19

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794

replace github.com/aclements/go-moremath => ../moremath
EOF
cd "$work/perf"
GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local \
	go build -o "$out" ./cmd/benchstat
echo "benchstat built: $out"
