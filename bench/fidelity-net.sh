#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-net.sh: compare schedperf's tcp-rr workload with dbench's tbench
# (request/response) and iperf3 (a stream) on this machine, over loopback,
# interleaved pairs, both pinned alike (bench/lib.sh).
#
# tbench replays a load file of SMB calls, each a request and a response of
# its own sizes; no single size pair is "tbench's", so its mode matches
# ours only with a load file of one call. This script writes one: LINES
# lines of `ReadX 1 0 SIZE SIZE NT_STATUS_OK`, which tbench sends as a
# 59-byte request (39 + 20) and answers with 59 + SIZE bytes (dbench
# sockio.c), counting SIZE bytes per call in its MB/s: transactions/s is
# MB/s x 1e6 / SIZE. Ours: framing=length (tbench's length words)
# req_size=59 resp_size=59+SIZE, a process per client and per server as
# tbench and tbench_srv fork them. tbench's own run includes a warm-up of
# a fifth of -t that its throughput leaves out; ours measures all of its
# runtime. The load files that come with dbench (client.txt) mix calls of
# many sizes and file-name lookups: not compared, as no fixed-size
# transaction is the same work.
#
# Cases (RUNTIME seconds each, default 5; N = CPUs):
#   1  1 client,  SIZE=1000, on one CPU     the round trip with both sides on one CPU
#   2  1 client,  SIZE=1000, every CPU      where the scheduler places the server
#   3  N clients, SIZE=1000, every CPU
#   4  iperf3 -c 127.0.0.1 -l 128K, every CPU; ours mode=stream req_size=131072
# tbench_srv and iperf3 -s run for the whole script (started here, stopped
# on exit). netperf's TCP_RR (framing=fixed) has no packaged reference in
# Debian's main archive: not compared.
#
# usage: bench/fidelity-net.sh [SCHEDPERF]
# Environment: RUNTIME, SIZE, LINES (default 2000), CASES="1 4" (a subset);
# and PAIRS, MAX_PAIRS, CASE_SECONDS, TARGET, BAND, SUMMARY, CPUS, RUN_OPTS
# as bench/lib.sh says. Needs dbench and iperf3 (scripts/install-deps.sh
# installs them). Exit: 0 done, 2 usage, 3 a tool missing, 4 a run gave no
# number.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-net "${1:-./build/schedperf}"
for tool in tbench tbench_srv iperf3 ss; do
	command -v "$tool" >/dev/null ||
		{ echo "fidelity-net: $tool not found (apt-get install dbench iperf3 iproute2)" >&2; exit 3; }
done
runtime=${RUNTIME:-5}
size=${SIZE:-1000}
n=$(nproc)
one_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
srv_pids=()
trap 'rm -rf "$bench_tmp"; for p in "${srv_pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT

for ((i = 0; i < ${LINES:-2000}; i++)); do
	echo "ReadX 1 0 $size $size NT_STATUS_OK"
done >"$bench_tmp/readx.txt"

# The servers on every CPU of $CPUS; each case pins its clients. A server
# forks a process per connection, which inherits its affinity: a one-CPU
# case gets servers of its own.
start_servers() {
	local cpus=$1 port=$2 srv
	taskset -c "$cpus" tbench_srv >/dev/null 2>&1 &
	srv_pids+=($!)
	taskset -c "$cpus" iperf3 -s -p "$port" >/dev/null 2>&1 &
	srv_pids+=($!)
	# both listen before any client connects: tbench on 7003, iperf3 on $port
	for srv in 7003 "$port"; do
		until ss -Hltn "sport = :$srv" | grep -q .; do sleep 0.05; done
	done
}

ref_tbench() {	# CLIENTS
	pinned tbench -c "$bench_tmp/readx.txt" -t "$runtime" "$1" 127.0.0.1 2>&1 |
		awk -v size="$size" '/^Throughput/ { printf "%.6f\n", $2 * 1e6 / size }'
}
ours_tbench() {	# CLIENTS
	ours tcp-rr transactions_per_sec pairs="$1" framing=length req_size=59 \
		resp_size=$((59 + size)) runtime="$runtime"
}

ref_case1() { ref_tbench 1; }
ours_case1() { ours_tbench 1; }
ref_case2() { ref_tbench 1; }
ours_case2() { ours_tbench 1; }
ref_case3() { ref_tbench "$n"; }
ours_case3() { ours_tbench "$n"; }
# iperf3's receiver's rate, in MB/s (1e6 bytes) as ours.
ref_case4() {
	pinned iperf3 -c 127.0.0.1 -p 5299 -t "$runtime" -l 128K -J |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 8e6)'
}
ours_case4() { ours tcp-rr mbytes_per_sec mode=stream req_size=131072 runtime="$runtime"; }

all_cpus=$CPUS
for c in ${CASES:-1 2 3 4}; do
	case $c in
	1)
		# its own servers, on the one CPU the clients use (tbench connects to 7003)
		for p in "${srv_pids[@]}"; do kill "$p" 2>/dev/null; done
		srv_pids=()
		start_servers "$one_cpu" 5299
		CPUS=$one_cpu pairs "tcp-rr framing=length 59/$((59 + size)) B, CPU $one_cpu" \
			ref_case1 ours_case1 --ref "tbench 1 (ReadX $size)" transactions_per_sec:higher
		for p in "${srv_pids[@]}"; do kill "$p" 2>/dev/null; done
		srv_pids=()
		;;
	2 | 3 | 4)
		[[ ${#srv_pids[@]} -gt 0 ]] || start_servers "$all_cpus" 5299
		labels=("" "" "pairs=1" "pairs=$n")
		if ((c == 4)); then
			pairs "tcp-rr mode=stream req_size=131072" ref_case4 ours_case4 \
				--ref "iperf3 -c 127.0.0.1 -l 128K" mbytes_per_sec:higher
		else
			pairs "tcp-rr framing=length ${labels[c]} 59/$((59 + size)) B" "ref_case$c" \
				"ours_case$c" --ref "tbench ${labels[c]#pairs=} (ReadX $size)" \
				transactions_per_sec:higher
		fi
		;;
	*)
		echo "fidelity-net: CASES: no case '$c' (give numbers from 1 to 4)" >&2
		exit 2
		;;
	esac
done
bench_report
