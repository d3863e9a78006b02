#!/usr/bin/env bash
# Mutation check: does the suite notice a wrong formula or branch? Each
# mutation of tests/mutations.txt replaces one exact piece of a source file
# in a scratch copy of the tree; the tests it names are run on the mutant
# and at least one of them must fail. The same tests are first run on the
# unchanged copy, where all must pass, so that a failure is the mutant's.
#
# usage: tests/mutate.sh [MUTATIONS_FILE [NAME...]]
#   NAME: run only the mutations with these names (default: every one).
# Ends with one line "N caught, N missed"; exit 0 when none was missed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$top/tests/mutations.txt}
shift $(($# > 0 ? 1 : 0))
only=" $* "

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# the tree as it is now, without any build, into a copy of its own
tar -C "$top" --exclude='./build*' --exclude=./.git --exclude=./schedperf -cf - . |
	tar -C "$scratch" -xf -
build() {
	make -C "$scratch" -s -j2 all tests >"$scratch/make.log" 2>&1
}

# run_tests TEST...: each a unit test binary's name (test_summary) or a
# command-line test file (compare.bats); fails when any test fails. A
# mutant may loop forever: one that outlives the limit fails too.
limit=${MUTATE_TIME_LIMIT:-1800}
run_tests() {
	local t rc=0
	for t in "$@"; do
		case $t in
		*.bats)
			SCHEDPERF="$scratch/build/schedperf" timeout "$limit" \
				bats "$scratch/tests/cli/$t" >"$scratch/test.log" 2>&1 || rc=1 ;;
		*)
			timeout "$limit" "$scratch/build/tests/$t" >"$scratch/test.log" 2>&1 || rc=1 ;;
		esac
		[ "$rc" = 0 ] || { echo "      failed: $t"; return 1; }
	done
}

# replace_once FILE FROM TO: FROM must occur in FILE exactly once.
replace_once() {
	local text rest
	text=$(<"$1")
	rest=${text#*"$2"}
	[ "$rest" != "$text" ] || { echo "not found in $1: $2"; return 1; }
	[[ "$rest" != *"$2"* ]] || { echo "more than once in $1: $2"; return 1; }
	printf '%s\n' "${text/"$2"/"$3"}" >"$1"
}

declare -a names files froms tos tests
parse() {	# the file: blocks of "name:", "file:", "from:", "to:", "tests:" lines
	local key value i=-1
	while IFS= read -r line; do
		case $line in '#'* | '') continue ;; esac
		key=${line%%:*}
		value=${line#*:}
		value=${value# }
		case $key in
		name) i=$((i + 1)); names[i]=$value ;;
		file) files[i]=$value ;;
		from) froms[i]=$value ;;
		to) tos[i]=$value ;;
		tests) tests[i]=$value ;;
		*) echo "$list: unknown line: $line"; exit 2 ;;
		esac
	done <"$list"
}
parse

echo "building the unchanged copy"
build || { cat "$scratch/make.log"; exit 2; }
declare -A baseline
for i in "${!names[@]}"; do
	for t in ${tests[i]}; do
		[ -n "${baseline[$t]:-}" ] && continue
		[ "$only" = "  " ] || [[ "$only" == *" ${names[i]} "* ]] || continue
		run_tests "$t" || { cat "$scratch/test.log"; echo "$t fails unchanged"; exit 2; }
		baseline[$t]=ok
	done
done

caught=0 missed=0
for i in "${!names[@]}"; do
	[ "$only" = "  " ] || [[ "$only" == *" ${names[i]} "* ]] || continue
	f="$scratch/${files[i]}"
	cp -p "$f" "$scratch/saved"
	replace_once "$f" "${froms[i]}" "${tos[i]}" || exit 2
	echo "${names[i]}: ${files[i]}"
	if ! build; then
		cat "$scratch/make.log"
		echo "${names[i]}: the mutant does not build"
		exit 2
	fi
	# shellcheck disable=SC2086 # a list of test names
	if run_tests ${tests[i]}; then
		echo "   MISSED: every test passed"
		missed=$((missed + 1))
	else
		echo "   caught"
		caught=$((caught + 1))
	fi
	cp -p "$scratch/saved" "$f"
	touch "$f"
done
echo "$caught caught, $missed missed"
[ "$missed" = 0 ]
