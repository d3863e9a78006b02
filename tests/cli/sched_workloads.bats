#!/usr/bin/env bats
# cyclictest, tcp-rr and fairness from the command line: a tiny run of each
# stores its metrics; their helpers (the load beside cyclictest, fairness's
# scratch cgroups) go with schedperf when it is killed with SIGKILL.

load helpers

# metric_of RUN METRIC: the first sample of METRIC in RUN.
metric_of() {
	sp export "$1" >"$TMP/x.json"
	json "[m['samples'][0] for b in d['runs'][-1]['benchmarks'] for m in b['metrics'] if m['name'] == '$2'][0]" "$TMP/x.json"
}

@test "cyclictest, tcp-rr, fairness: a tiny run of each stores its metrics" {
	sp run cyclictest -p policy=other -p loops=20 -p interval=200 -i 1 --name ct --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM metrics WHERE name LIKE 'latency_%'")" -eq 7 ]
	run metric_of ct latency_max
	[[ "$output" =~ ^[0-9.]+$ ]]
	sp run tcp-rr -p transactions=100 -p pairs=2 -i 1 --name rr --quiet
	run metric_of rr transactions_per_sec
	[[ "$output" =~ ^[0-9.]+$ ]]
	sp run tcp-rr -p mode=stream -p transactions=10 -p req_size=4096 -i 1 --name st --quiet
	run metric_of st mbytes_per_sec
	[[ "$output" =~ ^[0-9.]+$ ]]
	# each mode stores its own metrics alone, and list names both modes'
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT group_concat(m.name) FROM metrics m
		JOIN benchmarks b ON b.id = m.benchmark_id JOIN batches t ON t.id = b.batch_id
		JOIN runs r ON r.id = t.run_id WHERE r.name = 'st' AND m.source = 'workload'")" \
		= mbytes_per_sec ]
	run sp list tcp-rr
	[[ "$output" == *"mbytes_per_sec MB/s"*"mode=stream's only metric"* ]]
	[[ "$output" == *"latency_p999"* ]]
	sp run fairness -p mode=nice -p weights=100:200:300 -p tasks=1 -p runtime=1 -p warmup=0 \
		-i 1 --name fair --quiet
	run metric_of fair share_3
	[[ "$output" =~ ^[0-9.]+$ ]]
	run sp run fairness -p weights=100:0 --name bad
	[ "$status" -eq 2 ]
	assert_one_line_error
}

# scratch_cgroups PID: the scratch cgroups the process PID made, anywhere
# under /sys/fs/cgroup.
scratch_cgroups() {
	find /sys/fs/cgroup -maxdepth 5 -type d -name "schedperf-$1-*" 2>/dev/null
}

# no_scratch_cgroups PID: PID's scratch cgroups are all gone (looked at
# each time it is called, for wait_for).
no_scratch_cgroups() {
	[ -z "$(scratch_cgroups "$1")" ]
}

# start_fairness NAME: a fairness run NAME in the background, $runner its
# pid, $worker its iteration's process once that has made its scratch
# cgroups (the cgroups exist once the workload's process made them); skips
# where no cpu controller may be used.
start_fairness() {
	"$SP" run fairness -p weights=100:400 -p tasks=1 -p runtime=600 -p warmup=0 -i 1 \
		--name "$1" --quiet 2>"$TMP/err" 3>&- &
	runner=$!
	wait_for iteration_child "$runner"
	worker=$child
	until [ -n "$(scratch_cgroups "$worker")" ]; do
		if ! kill -0 "$runner" 2>/dev/null; then
			grep -q 'cpu controller\|Permission denied\|Read-only' "$TMP/err" &&
				skip "no cpu controller this process may use: $(cat "$TMP/err")"
			echo "the run ended first: $(cat "$TMP/err")"
			return 1
		fi
		sleep 0.05
	done
}

@test "fairness: SIGKILL of schedperf kills its tasks and removes its scratch cgroups" {
	start_fairness k
	tasks=$(descendants "$runner")
	kill -9 "$runner"
	wait "$runner" || true
	wait_for no_scratch_cgroups "$worker"
	wait_for all_gone $tasks
}

@test "fairness: a killed iteration's process leaves no scratch cgroups and no task" {
	# its cgroup reaper, which left the group, comes to the iteration's
	# holder like any task that left it: ended with them, it would leave
	# the cgroups behind
	start_fairness c
	tasks=$(descendants "$worker")
	kill -9 "$worker"
	wait_for all_gone "$runner"
	wait "$runner" || true
	grep -q "killed by signal 9" "$TMP/err" || { cat "$TMP/err"; return 1; }
	wait_for no_scratch_cgroups "$worker"
	wait_for all_gone $tasks
}

@test "cyclictest: SIGKILL of schedperf ends the load running beside it" {
	"$SP" run cyclictest -p policy=other -p runtime=600 -p load=messaging \
		-p 'load_params=groups=1 fds=2 loops=1000000' -i 1 --name k --quiet 2>"$TMP/err" &
	runner=$!
	wait_for iteration_child "$runner"
	# the iteration's process, the load's guardian and process, its 4 tasks
	until [ "$(descendants "$runner" | wc -l)" -ge 8 ]; do
		kill -0 "$runner" || { echo "the run ended first: $(cat "$TMP/err")"; return 1; }
		sleep 0.05
	done
	tasks=$(descendants "$runner")
	kill -9 "$runner"
	wait "$runner" || true
	wait_for all_gone $tasks
}
