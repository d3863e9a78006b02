#!/usr/bin/env bats
# The runner: plans, timeouts, retries, affinity, kill -9 and --resume.

load helpers

iterations() {	# iterations [WHERE]: iterations in the store
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations ${1:+WHERE $1}"
}

@test "--dry-run prints one benchmark a line and stores nothing" {
	run sp run pipe -p loops=1000,2000 -p mode=process,thread -i 3 --warmup 1 --dry-run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "pipe loops=1000 mode=process cpus=any" ]
	[ "${lines[3]}" = "pipe loops=2000 mode=thread cpus=any" ]
	[[ "${lines[4]}" == "4 benchmarks, 16 iterations in all"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	run sp run messaging -p groups=2 --dry-run --assume-cpus 64
	[[ "$output" == *"at most 80 tasks"*"planned for 64 CPUs"* ]]
	run sp run pipe --assume-cpus 64
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "--timeout: a hung iteration is killed with its group and recorded as failed" {
	run sp run pipe -p loops=100000000 -i 2 --timeout 0.3 --name t
	[ "$status" -eq 0 ]
	[[ "$output" == *"timed out after 0.3 s"* ]]
	[ "$(iterations "failure LIKE 'timed out%'")" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM samples')" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
	sleep 0.2
	! pgrep -f "schedperf run pipe -p loops=100000000" >/dev/null
}

@test "--retries: a failed iteration is attempted again and every attempt stored" {
	run sp run pipe -p loops=100000000 -i 1 --timeout 0.2 --retries 2 --name r
	[ "$(iterations)" -eq 3 ]
	[[ "$output" == *"retrying"* ]]
}

@test "--cpus pins the workload's tasks" {
	run sp run pipe -p loops=1000 -p cpus=cross -i 1 --cpus 0 --name c
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp run pipe -p loops=1000 -i 1 --cpus 0 --name c --quiet
	[ "$status" -eq 0 ]
	run sp run pipe --cpus 99999
	[ "$status" -eq 2 ]
	run sp run pipe --cpus 3-1
	[ "$status" -eq 2 ]
}

@test "--shuffle runs every benchmark once, in some order" {
	sp run pipe -p loops=1000,1001,1002,1003 -i 1 --shuffle --name s --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(DISTINCT params) FROM benchmarks')" -eq 4 ]
	[ "$(iterations)" -eq 4 ]
}

@test "kill -9 leaves whole iterations; --resume runs exactly the missing ones" {
	"$SP" run pipe -p loops=30000 -p mode=process,thread -i 6 --warmup 1 --name k --quiet &
	pid=$!
	for _ in $(seq 200); do
		[ "$(iterations 2>/dev/null || echo 0)" -ge 3 ] && break
		sleep 0.05
	done
	kill -9 $pid
	wait $pid || true
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 0 ]
	before=$(iterations)
	[ "$before" -lt 14 ]
	# whole iterations only: every stored iteration has all its samples
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations i WHERE (SELECT count(*) FROM samples s WHERE s.iteration_id = i.id) != (SELECT count(*) FROM metrics m WHERE m.benchmark_id = i.benchmark_id)')" -eq 0 ]
	run sp run --resume --name k --quiet
	[ "$status" -eq 0 ]
	[ "$(iterations)" -eq 14 ]
	[ "$(iterations 'warmup = 1')" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
	run sp run --resume --name k
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "SIGTERM: exit 143, completed iterations kept, resumable" {
	"$SP" run pipe -p loops=50000 -i 40 --name term --quiet &
	pid=$!
	for _ in $(seq 200); do
		[ "$(iterations 2>/dev/null || echo 0)" -ge 1 ] && break
		sleep 0.05
	done
	kill -TERM $pid
	wait $pid || status=$?
	[ "$status" -eq 143 ]
	sp run --resume --name term --quiet
	[ "$(iterations)" -eq 40 ]
}

@test "--resume refuses a plan given again" {
	run sp run pipe --resume
	[ "$status" -eq 2 ]
	assert_one_line_error
}
