#!/usr/bin/env bash
# Run each libFuzzer target for SECONDS from its seed corpus, every target
# at once (they share nothing, and CI's time is better spent fuzzing on
# every CPU than waiting for one target after another).
# usage: tests/fuzz/run.sh SECONDS BUILD_DIR TARGET...
# New inputs go to BUILD_DIR/corpus/TARGET (the seeds in the repository stay
# small); a crash leaves its input in BUILD_DIR/artifacts/ and fails the run.
set -u
seconds=$1 build=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
failed=0
declare -A pid_of
for t in "$@"; do
	work=$build/corpus/$t
	art=$build/artifacts/$t/
	mkdir -p "$work" "$art"
	"$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 -artifact_prefix="$art" \
		"$work" "$here/corpus/$t" >"$build/$t.log" 2>&1 &
	pid_of[$t]=$!
done
for t in "$@"; do
	log=$build/$t.log
	wait "${pid_of[$t]}"
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" = 0 ]; then
		echo "fuzz $t: ok, ${runs:-?} runs in ${seconds}s"
	else
		echo "fuzz $t: FAILED (exit $rc), see $log and $build/artifacts/$t/"
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 | sed 's/^/    /'
		failed=1
	fi
done
exit $failed
