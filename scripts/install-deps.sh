#!/bin/sh
# Install the Debian packages schedperf needs to build, test and compare.
# Idempotent and quiet when nothing is missing; as non-root it prints the
# exact command to run and exits 3 (doc/design.md: a missing resource).
set -eu

packages="build-essential pkg-config libsqlite3-dev libpq-dev libjansson-dev
r-mathlib libyaml-dev libcmocka-dev libelf-dev bats sqlite3 postgresql
postgresql-client python3 python3-scipy r-base-core
gnuplot-nox linux-perf rt-tests sysbench stress-ng dbench iperf3 clang libclang-rt-dev valgrind strace
chromium groff-base"

missing=""
for p in $packages; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "schedperf: missing packages:$missing: building and testing need them" \
	     "(run: sudo apt-get update && sudo apt-get install -y$missing)" >&2
	exit 3
fi

echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once per call.
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
