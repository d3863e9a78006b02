# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# bench/pg.sh: what the scripts that measure the PostgreSQL store share,
# sourced by them: a throwaway server (tests/pg-server.sh) in $pgdir and a
# scratch directory $dir, both removed at exit; url DB, the URL of its
# database DB; sql DB SQL, SQL's answer there; now, the time in seconds;
# median, the median of the numbers on standard input.
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d)
pgdir=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
trap '"$bench_here/../tests/pg-server.sh" stop "$pgdir"; rm -rf "$dir"' EXIT
"$bench_here/../tests/pg-server.sh" start "$pgdir" >/dev/null
url() { printf 'postgresql:///%s?host=%s&user=postgres' "$1" "$pgdir"; }
sql() { psql -qXAt "$(url "$1")" -c "$2"; }
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
