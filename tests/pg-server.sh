#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: initdb into a temporary
# directory, Unix socket only (no TCP port), trust authentication for the
# local socket, removed by `stop`.
#
#   tests/pg-server.sh start DIR   start a server in DIR (made if missing);
#                                  prints the URL of its "postgres" database
#   tests/pg-server.sh stop DIR    stop it and remove DIR
#   tests/pg-server.sh pause DIR   stop it, keeping its data
#   tests/pg-server.sh resume DIR  start it again
#
# The server binaries come from Debian's postgresql package (scripts/
# install-deps.sh). PostgreSQL refuses to run as root: as root, the server
# runs as the package's "postgres" user. A server that cannot be started
# is an error (exit 3), never a silent skip.
set -euo pipefail

die() { echo "pg-server: $*" >&2; exit 3; }

bindir=""
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && bindir=$d
done
[ -n "$bindir" ] || die "no PostgreSQL server found (install it: scripts/install-deps.sh)"

as_owner() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

start() {	# $1: data directory
	as_owner "$bindir/pg_ctl" -D "$1/data" -l "$1/log" -w -t 60 \
		-o "-c listen_addresses='' -c unix_socket_directories='$1' -c fsync=off" \
		start >/dev/null || { tail -20 "$1/log" >&2; die "the server in $1 did not start"; }
}

[ $# = 2 ] || die "usage: pg-server.sh start|stop|pause|resume DIR"
dir=$2
case $1 in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 \
		--locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; die "initdb failed in $dir"; }
	start "$dir"
	printf 'postgresql:///postgres?host=%s&user=postgres\n' "$dir"
	;;
pause)
	as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
	;;
resume)
	start "$dir"
	;;
stop)
	if [ -f "$dir/data/postmaster.pid" ]; then
		as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null || true
	fi
	rm -rf "$dir"
	;;
*)
	die "usage: pg-server.sh start|stop|pause|resume DIR"
	;;
esac
