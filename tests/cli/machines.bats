#!/usr/bin/env bats
# Machines: every batch records the machine it ran on (machine.id and
# machine.hostname in its environment); runs, compare, history, detect and
# report choose machines with --machine and never pool two machines'
# samples unless --pool-machines; a comparison across machines says so.
# Batches of another machine are this machine's, exported, given another
# machine's environment and imported. On SQLite and on a throwaway
# PostgreSQL server (tests/pg-server.sh).

load helpers
pg_file
pg_each_test

# as_other_machine NAME < export > import: the batches renamed NAME, run on
# machine "other" (id 0ther...) a day earlier.
as_other_machine() {
	"$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
for r in d["runs"]:
    r["name"] = sys.argv[1]
    r["started"] = "2026-01-01T00:00:0%dZ" % d["runs"].index(r)
    r["environment"]["machine.hostname"] = "other"
    r["environment"]["machine.id"] = "0ther0000000000000000000000000000"
json.dump(d, sys.stdout)' "$1"
}

# Runs a and b here and on "other", x only on "other", y only here, in store $1.
fleet_store() {
	sp --db "$1" run pipe -p loops=100 -i 3 --name a -q
	sp --db "$1" run pipe -p loops=100 -i 3 --name b -q
	sp --db "$1" run pipe -p loops=100 -i 2 --name y -q
	sp --db "$1" export a | as_other_machine a | sp --db "$1" import - >/dev/null
	sp --db "$1" export b | as_other_machine b | sp --db "$1" import - >/dev/null
	sp --db "$1" export y | as_other_machine x | sp --db "$1" import - >/dev/null
}

n_of() {	# n_of FILE RUN-INDEX: samples of the first row's cell of that run
	json "d['rows'][0]['runs'][$2]['n']" "$1"
}

check_machines() {	# check_machines DB
	local db=$1 HOST
	HOST=$(hostname)
	# every batch run here records this machine
	sp --db "$db" export y >"$TMP/y.json"
	[ "$(json 'd["runs"][0]["environment"]["machine.hostname"]' "$TMP/y.json")" = "$HOST" ]
	[ "$(json 'd["runs"][0]["environment"]["machine.id"]' "$TMP/y.json")" = "$(cat /etc/machine-id)" ]
	# runs: each batch with its machine; --machine keeps one
	sp --db "$db" runs --format json >"$TMP/runs.json"
	[ "$(json "{b['machine'] for r in d for b in r['batches']} == {'$HOST', 'other'}" "$TMP/runs.json")" = True ]
	run sp --db "$db" runs --machine 'oth*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"other"* ]]
	[[ "$output" != *"$HOST"* ]]
	[[ "$output" != *" y "* ]]
	# a pattern no stored batch matches is a mistake, said alike by every reader
	local cmd
	for cmd in runs 'runs --format json' history 'detect --format json'; do
		run sp --db "$db" $cmd --machine 'nowhere*'
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == "schedperf: ${cmd%% *}: no stored batch ran on a machine matching"\
" 'nowhere*' (see 'schedperf runs' for the machines)" ]]
	done
	# compare: a run with batches of two machines is refused, not pooled
	run sp --db "$db" compare a b
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run 'a' has batches from 2 machines"*"--machine PATTERN"*"--pool-machines"* ]]
	sp --db "$db" compare a b --machine "$HOST" --format json >"$TMP/here.json"
	[ "$(n_of "$TMP/here.json" 0)" -eq 3 ]
	[ "$(n_of "$TMP/here.json" 1)" -eq 3 ]
	[ "$(json "d['rows'][0]['runs'][1]['env_caveats']" "$TMP/here.json")" = "[]" ]
	sp --db "$db" compare a b --machine other --format json >"$TMP/other.json"
	[ "$(n_of "$TMP/other.json" 0)" -eq 3 ]
	run sp --db "$db" compare a b --machine 'nowhere*'
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no batch from a machine matching 'nowhere*'"* ]]
	# pooled on request, and then every verdict says the machines differ
	sp --db "$db" compare a b --pool-machines --format json >"$TMP/pooled.json"
	[ "$(n_of "$TMP/pooled.json" 0)" -eq 6 ]
	[[ "$(json "d['rows'][0]['runs'][1]['env_caveats']" "$TMP/pooled.json")" == *"machine.hostname"* ]]
	# two runs each of one machine, not the same: compared, with the caveat
	run sp --db "$db" compare x y
	[ "$status" -eq 0 ]
	[[ "$output" == *"!machine.hostname: x=other, y=$HOST"* ]]
	# a busy machine adds "; !disturbed N/M" inside the parentheses
	[[ "$output" == *"y "*"(!machine,machine-id differ"[\;\)]* ]]
	# history and detect: one series per machine unless pooled
	sp --db "$db" history --workload pipe --metric usec_per_op --format json >"$TMP/h.json"
	[ "$(json "{s['machine']: [p['run'] for p in s['points']] for s in d['series']} == \
		  {'$HOST': ['a', 'b', 'y'], 'other': ['a', 'b', 'x']} and len(d['series']) == 2" \
		  "$TMP/h.json")" = True ]
	[ "$(json '[p["n"] for s in d["series"] for p in s["points"] if p["run"] == "a"]' "$TMP/h.json")" = "[3, 3]" ]
	sp --db "$db" history --workload pipe --metric usec_per_op --pool-machines --format json >"$TMP/hp.json"
	[ "$(json '[(s["machine"], len(s["points"])) for s in d["series"]]' "$TMP/hp.json")" = "[(None, 4)]" ]
	[ "$(json '[p["n"] for s in d["series"] for p in s["points"] if p["run"] == "a"]' "$TMP/hp.json")" = "[6]" ]
	run sp --db "$db" history --metric usec_per_op --machine other
	[ "$status" -eq 0 ]
	[[ "$output" == *"usec_per_op (usec, lower is better) on other"* ]]
	[[ "$output" != *"on $HOST"* ]]
	run sp --db "$db" detect --machine "$HOST" --format json
	[ "$status" -eq 0 ]
	run sp --db "$db" detect --machine nowhere
	[ "$status" -eq 2 ]
	assert_one_line_error
	# --replace discards this machine's batches of the run, never another's
	sp --db "$db" runs --format json >"$TMP/before.json"
	sp --db "$db" run pipe -p loops=100 -i 2 --name a --replace -q
	sp --db "$db" runs --format json >"$TMP/after.json"
	local of_a="sorted((b['machine'], b['id']) for r in d if r['name'] == 'a' for b in r['batches'])"
	before=$(json "$of_a" "$TMP/before.json")
	after=$(json "$of_a" "$TMP/after.json")
	echo "$before -> $after"
	[ "$(json "[m for m, i in $of_a]" "$TMP/after.json")" = "$(json "[m for m, i in $of_a]" "$TMP/before.json")" ]
	[ "$(json "[i for m, i in $of_a if m == 'other']" "$TMP/after.json")" = "$(json "[i for m, i in $of_a if m == 'other']" "$TMP/before.json")" ]
	[ "$(json "[i for m, i in $of_a if m != 'other']" "$TMP/after.json")" != "$(json "[i for m, i in $of_a if m != 'other']" "$TMP/before.json")" ]
	# --resume finishes this machine's incomplete batch, never another's
	sp --db "$db" export y | as_other_machine z | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
d["runs"][0]["complete"] = False
json.dump(d, sys.stdout)' | sp --db "$db" import - >/dev/null
	run sp --db "$db" run --resume --name z
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ran on machine 'other', not this one (resume it there"* ]]
	# a machine cloned from this one's image shares its machine id, not its name:
	# still another machine for --replace and --resume
	sp --db "$db" export y | as_other_machine c | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
d["runs"][0]["environment"]["machine.id"] = open("/etc/machine-id").read().strip()
d["runs"][0]["environment"]["machine.hostname"] = "clone"
json.dump(d, sys.stdout)' | sp --db "$db" import - >/dev/null
	sp --db "$db" run pipe -p loops=100 -i 2 --name c --replace -q
	[ "$(sp --db "$db" runs --format json | "$PYTHON" -c 'import json, sys
print(sorted(b["machine"] for r in json.load(sys.stdin) if r["name"] == "c" for b in r["batches"]))')" = "$("$PYTHON" -c "print(sorted(['clone', '$HOST']))")" ]
	[ "$(sp --db "$db" runs --format json | "$PYTHON" -c 'import json, sys
print([len(r["batches"]) for r in json.load(sys.stdin) if r["name"] == "z"])')" = "[1]" ]
	# and for history and detect: the clone's batches are a series of their own
	sp --db "$db" history --workload pipe --metric usec_per_op --format json >"$TMP/hc.json"
	[ "$(json "sorted((s['machine'], p['n']) for s in d['series'] for p in s['points'] \
		  if p['run'] == 'c')" "$TMP/hc.json")" = "$("$PYTHON" -c "print(sorted([('clone', 2), ('$HOST', 2)]))")" ]
	# a pinned batch of a run is not pooled with an unpinned one: a series each
	sp --db "$db" run pipe -p loops=100 -i 2 --name p --cpus 0 -q
	sp --db "$db" run pipe -p loops=100 -i 3 --name p -q
	local of_p='sorted((s["cpus"] or "-", [(p["run"], p["n"]) for p in s["points"] if p["run"] == "p"]) for s in d["series"])'
	sp --db "$db" history --workload pipe --metric usec_per_op --machine "$HOST" \
		--format json >"$TMP/hp.json"
	[ "$(json "$of_p" "$TMP/hp.json")" = "[('-', [('p', 3)]), ('0', [('p', 2)])]" ]
	sp --db "$db" detect --workload pipe --metric usec_per_op --machine "$HOST" \
		--format json >"$TMP/dp.json"
	[ "$(json 'sorted((s["cpus"] or "-", s["points"]) for s in d)' "$TMP/dp.json")" = "[('-', 5), ('0', 1)]" ]
	run sp --db "$db" history --workload pipe --metric usec_per_op --machine "$HOST"
	[[ "$output" == *"usec_per_op (usec, lower is better) on $HOST pinned to CPUs 0"* ]]
	sp --db "$db" history --workload pipe --metric usec_per_op --machine "$HOST" --format csv \
		>"$TMP/hp.csv"
	grep -q "^pipe,.*,p,,.*,2,.*,$HOST,0,$(cat /etc/machine-id),0\$" "$TMP/hp.csv"
}

@test "machines: SQLite: --machine chooses, machines are never pooled unless asked" {
	fleet_store "$SCHEDPERF_DB"
	check_machines "$SCHEDPERF_DB"
	# report compares as compare does
	run sp report a b -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ ! -e "$TMP/r.html" ]
	sp report a b --machine other -o "$TMP/r.html"
	[ -s "$TMP/r.html" ]
}

@test "machines: --machine on an empty store is no mistake: what it says without one" {
	sp db init >/dev/null
	[ "$(sp runs --machine 'nowhere*')" = "$(sp runs)" ]
	[ "$(sp runs --machine 'nowhere*' --format json)" = "[]" ]
	run sp history --machine 'nowhere*'
	[ "$status" -eq 0 ]
	[[ "$output" == "no series"* ]]
}

@test "machines: PostgreSQL: the same" {
	fleet_store "$PG"
	check_machines "$PG"
}

# In store $1: runs k01..k08 on two machines both named "h" (ids aaaaaaaa...
# and bbbbbbbb...), k09 on an "h" with no machine id; machine "solo" ran
# k01..k04 before machine ids were recorded and k05..k08 after.
same_host_store() {
	"$PYTHON" - "$TMP/same.json" <<-'EOF'
	import json, sys
	def run(name, day, host, mid, value):
	    env = {"machine.hostname": host}
	    if mid:
	        env["machine.id"] = mid * 32
	    return {"name": name, "started": "2026-01-%02dT%02d:00:00Z" % (day, ["ha", "hb", "h", "solo", "soloc"].index(host + mid)),
	            "complete": True, "environment": env,
	            "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
	                            "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                         "better": "lower",
	                                         "samples": [value, value * 1.001]}]}]}
	runs = [run("k%02d" % i, i, "h", "a", 10) for i in range(1, 9)]
	runs += [run("k%02d" % i, i, "h", "b", 20) for i in range(1, 9)]
	runs += [run("k09", 9, "h", "", 30)]
	runs += [run("k%02d" % i, i, "solo", "" if i < 5 else "c", 5) for i in range(1, 9)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp --db "$1" import "$TMP/same.json" >/dev/null
}

check_same_host() {
	local db=$1 a=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
	local c=cccccccccccccccccccccccccccccccc HOST
	HOST=$(hostname)
	run sp --db "$db" history
	[ "$status" -eq 0 ]
	[ "$(grep -c ' on h (aaaaaaaa)$' <<<"$output")" = 1 ]
	[ "$(grep -c ' on h (bbbbbbbb)$' <<<"$output")" = 1 ]
	[ "$(grep -c ' on h (no machine id)$' <<<"$output")" = 1 ]
	# solo's batches without an id join the one solo that has one
	[ "$(grep -c ' on solo$' <<<"$output")" = 1 ]
	sp --db "$db" history --format json >"$TMP/h.json"
	[ "$(json "sorted((s['machine'], s['machine_id'] or '', len(s['points'])) for s in d['series'])" "$TMP/h.json")" = "[('h', '', 1), ('h', '$a', 8), ('h', '$b', 8), ('solo', '$c', 8)]" ]
	sp --db "$db" history --format csv >"$TMP/h.csv"
	[ "$(cut -d, -f15,17 "$TMP/h.csv" | LC_ALL=C sort | uniq -c | awk '{ print $1 ":" $2 }' | tr '\n' ' ')" = "1:h, 8:h,$a 8:h,$b 1:machine,machine_id 8:solo,$c " ]
	sp --db "$db" detect --format json >"$TMP/d.json"
	[ "$(json "sorted((s['machine'], s['machine_id'] or '') for s in d)" "$TMP/d.json")" = "[('h', ''), ('h', '$a'), ('h', '$b'), ('solo', '$c')]" ]
	# compare names the two h apart
	run sp --db "$db" compare k01 k02
	[ "$status" -eq 2 ]
	[[ "$output" == *"has batches from 3 machines (h (aaaaaaaa), h (bbbbbbbb), solo)"* ]] ||
		{ echo "$output"; false; }
	sp --db "$db" compare k04 k05 --machine solo --format json >/dev/null
	# runs names them as compare does, the id only where the host name is shared
	run sp --db "$db" runs
	[ "$status" -eq 0 ]
	[ "$(awk '$1 == "k01" { on = 1; next } /^[^ ]/ { on = 0 } on { sub(/.*complete +/, ""); print }' <<<"$output" | tr '\n' ';')" = "h (aaaaaaaa);h (bbbbbbbb);solo;" ] ||
		{ echo "$output"; false; }
	[ "$(grep -cE ' complete +h \(no machine id\)$' <<<"$output")" = 1 ]
	run sp --db "$db" runs --machine "$a"
	[ "$status" -eq 0 ]
	[ "$(grep -cE ' complete +h$' <<<"$output")" = 8 ]
	sp --db "$db" runs --format json >"$TMP/r.json"
	[ "$(json "[(b['machine'], b['machine_id']) for r in d if r['name'] in ('k01', 'k09') for b in r['batches']]" "$TMP/r.json")" = "[('h', '$a'), ('h', '$b'), ('solo', None), ('h', None)]" ]
	# --machine by id still chooses one of them
	sp --db "$db" history --machine "$a" --format json >"$TMP/h.json"
	[ "$(json "[s['machine_id'] for s in d['series']]" "$TMP/h.json")" = "['$a']" ]
	# resume: an incomplete batch of a machine with this host name but another id
	sp --db "$db" export k09 | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
d["runs"][0].update(name="inc", complete=False)
d["runs"][0]["environment"].update({"machine.hostname": sys.argv[1], "machine.id": "f" * 32})
json.dump(d, sys.stdout)' "$HOST" | sp --db "$db" import - >/dev/null
	run sp --db "$db" run --resume --name inc
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ran on machine '$HOST' of machine id 'ffffffffffffffffffffffffffffffff', not this one, of machine id '$(cat /etc/machine-id)' (resume it there"* ]] || { echo "$output"; false; }
	# one that records no machine id (older than machine ids) and this host name
	# is this machine's: an absent id is not another id. An export keeps no
	# batch's plan, so what refuses it is the plan, not the machine.
	sp --db "$db" export k09 | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
r = d["runs"][0]
assert "machine.id" not in r["environment"]
r.update(name="noid-h", complete=False)
d["runs"].append(json.loads(json.dumps(r)))
d["runs"][1]["name"] = "noid"
d["runs"][1]["environment"]["machine.hostname"] = sys.argv[1]
json.dump(d, sys.stdout)' "$HOST" | sp --db "$db" import - >/dev/null
	run sp --db "$db" run --resume --name noid
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"the batch has no stored plan to resume"* ]] || { echo "$output"; false; }
	# and with no machine id, another host name is still another machine
	run sp --db "$db" run --resume --name noid-h
	[ "$status" -eq 2 ]
	[[ "$output" == *"ran on machine 'h', not this one"* ]] || { echo "$output"; false; }
}

@test "machines: SQLite: two machines of one host name are told apart, a batch without id joins its host's one machine" {
	same_host_store "$SCHEDPERF_DB"
	check_same_host "$SCHEDPERF_DB"
	# a batch of a store older than machine ids, cut short here, is resumed here
	sp run pipe -p loops=100 -i 3 --name old -q
	sqlite3 "$SCHEDPERF_DB" "UPDATE batches SET complete = 0, finished = NULL
		WHERE run_id = (SELECT id FROM runs WHERE name = 'old');
		DELETE FROM environment WHERE key = 'machine.id' AND batch_id IN
		(SELECT b.id FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'old')"
	sp run --resume --name old -q
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT b.complete FROM batches b JOIN runs r ON r.id = b.run_id
		WHERE r.name = 'old'")" = 1 ]
}

@test "machines: PostgreSQL: two machines of one host name, the same" {
	same_host_store "$PG"
	check_same_host "$PG"
}

@test "machines: --machine takes the start of a machine id that runs and compare show; one that starts two ids is refused" {
	local a=3f2a9c01aaaaaaaaaaaaaaaaaaaaaaaa b=3f2a9c01bbbbbbbbbbbbbbbbbbbbbbbb
	local d=dddddddddddddddddddddddddddddddd
	# k1 and k2 on two machines named h (ids $a and $d), k3 on a third h (id $b)
	"$PYTHON" - "$a" "$b" "$d" >"$TMP/m.json" <<-'EOF'
	import json, sys
	a, b, d = sys.argv[1:]
	def run(name, hour, mid, value):
	    return {"name": name, "started": "2026-01-01T%02d:00:00Z" % hour, "complete": True,
	            "environment": {"machine.hostname": "h", "machine.id": mid},
	            "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
	                            "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                         "better": "lower",
	                                         "samples": [value, value * 1.001]}]}]}
	runs = [run("k1", 1, a, 10), run("k1", 2, d, 20), run("k2", 3, a, 11), run("k2", 4, d, 21),
	        run("k3", 5, b, 12)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)
	EOF
	sp import "$TMP/m.json" >/dev/null
	run sp runs
	[ "$status" -eq 0 ]
	[[ "$output" == *" complete    h (3f2a9c01)"* ]] || { echo "$output"; false; }
	run sp compare k1 k2
	[ "$status" -eq 2 ]
	[[ "$output" == *"(h (3f2a9c01), h (dddddddd)): their samples are not pooled (choose one with --machine PATTERN"* ]] ||
		{ echo "$output"; false; }
	# what it shows chooses that machine
	sp compare k1 k2 --machine 3f2a9c01 --format json >"$TMP/c.json"
	[ "$(json "[c['min'] for c in d['rows'][0]['runs']]" "$TMP/c.json")" = "[10.0, 11.0]" ] ||
		{ cat "$TMP/c.json"; false; }
	sp compare k1 k2 --machine dddddddd --format json >"$TMP/c.json"
	[ "$(json "[c['min'] for c in d['rows'][0]['runs']]" "$TMP/c.json")" = "[20.0, 21.0]" ]
	# in the whole store 3f2a9c01 starts two ids: refused, with both, not both chosen
	for cmd in runs history detect; do
		run sp "$cmd" --machine 3f2a9c01
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == "schedperf: $cmd: --machine '3f2a9c01' is the start of more than one machine id ($a, $b): give more of the id"* ]] ||
			{ echo "$output"; false; }
	done
	sp runs --machine 3f2a9c01a --format json >"$TMP/r.json"
	[ "$(json "sorted(set((r['name'], b['machine_id']) for r in d for b in r['batches']))" "$TMP/r.json")" = "[('k1', '$a'), ('k2', '$a')]" ]
	sp history --machine "$b" --format json >"$TMP/h.json"
	[ "$(json "[s['machine_id'] for s in d['series']]" "$TMP/h.json")" = "['$b']" ]
	# a wildcard is a pattern as before: all it matches
	sp runs --machine '3f2a9c01*' --format json >"$TMP/r.json"
	[ "$(json "sorted(set(b['machine_id'] for r in d for b in r['batches']))" "$TMP/r.json")" = "['$a', '$b']" ]
	# fewer characters than runs shows are no id's start
	run sp compare k1 k2 --machine 3f2a9c0
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'k1' has no batch from a machine matching '3f2a9c0'"* ]] || { echo "$output"; false; }
}

# import_machines NAME:HOST:ID ...: one complete run a batch, an hour apart, into the store
import_machines() {
	"$PYTHON" - "$@" >"$TMP/m.json" <<-'EOF'
	import json, sys
	runs = []
	for hour, spec in enumerate(sys.argv[1:]):
	    name, host, mid = spec.split(":")
	    runs.append({"name": name, "started": "2026-01-01T%02d:00:00Z" % hour, "complete": True,
	                 "environment": {"machine.hostname": host, "machine.id": mid},
	                 "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
	                                 "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                              "better": "lower",
	                                              "samples": [10 + hour, 10.01 + hour]}]}]})
	json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)
	EOF
	sp import "$TMP/m.json" >/dev/null
}

@test "machines: compare and report refuse an id's start that starts two ids of the runs they compare, as runs does" {
	local a=3f2a9c01aaaaaaaaaaaaaaaaaaaaaaaa b=3f2a9c01bbbbbbbbbbbbbbbbbbbbbbbb
	# k1 ran on one machine h, k3 on another h: each run alone has one id 3f2a9c01 starts
	import_machines k1:h:$a k3:h:$b
	local line="--machine '3f2a9c01' is the start of more than one machine id ($a, $b): give more of the id"
	run sp runs --machine 3f2a9c01
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: runs: $line"* ]] || { echo "$output"; false; }
	run sp compare k1 k3 --machine 3f2a9c01
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: compare: $line"* ]] || { echo "$output"; false; }
	run sp report k1 k3 --machine 3f2a9c01 -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: report: $line"* ]] || { echo "$output"; false; }
	[ ! -e "$TMP/r.html" ]
	# more of the id chooses one machine; the other run then has none of it
	run sp compare k1 k3 --machine 3f2a9c01a
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'k3' has no batch from a machine matching '3f2a9c01a'"* ]] ||
		{ echo "$output"; false; }
}

@test "machines: --machine that is a host name or a whole id is that machine, not an id's start" {
	local a=3f2a9c01aaaaaaaaaaaaaaaaaaaaaaaa b=3f2a9c01bbbbbbbbbbbbbbbbbbbbbbbb
	local e=eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
	# host 3f2a9c01 is also the start of two ids: its own run, not refused
	import_machines d:3f2a9c01:$e k1:h:$a k3:h:$b
	sp runs --machine 3f2a9c01 --format json >"$TMP/r.json"
	[ "$(json "sorted(set((r['name'], b['machine_id']) for r in d for b in r['batches']))" "$TMP/r.json")" = "[('d', '$e')]" ] ||
		{ cat "$TMP/r.json"; false; }
	run sp history --machine 3f2a9c01 --format json
	[ "$status" -eq 0 ]
	[[ "$output" != *"$a"* && "$output" == *"$e"* ]] || { echo "$output"; false; }
	# compare reads the runs it compares: d on host 3f2a9c01 and k1 on an id it starts
	run sp compare d k1 --machine 3f2a9c01
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'k1' has no batch from a machine matching '3f2a9c01'"* ]] ||
		{ echo "$output"; false; }
}

@test "machines: --machine that is one machine's host name and another's id start is the host's machine" {
	local a=3f2a9c01aaaaaaaaaaaaaaaaaaaaaaaa e=eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
	import_machines d:3f2a9c01:$e k1:h:$a
	sp runs --machine 3f2a9c01 --format json >"$TMP/r.json"
	[ "$(json "sorted(set((r['name'], b['machine_id']) for r in d for b in r['batches']))" "$TMP/r.json")" = "[('d', '$e')]" ] ||
		{ cat "$TMP/r.json"; false; }
	# a whole id that starts another id is that one machine
	import_machines x:g:3f2a9c01 y:g2:3f2a9c01ffff
	sp runs --machine 3f2a9c01ffff --format json >"$TMP/r.json"
	[ "$(json "sorted(set((r['name'], b['machine_id']) for r in d for b in r['batches']))" "$TMP/r.json")" = "[('y', '3f2a9c01ffff')]" ] ||
		{ cat "$TMP/r.json"; false; }
	# without the host name, the start of one id chooses it
	sp runs --machine 3f2a9c01a --format json >"$TMP/r.json"
	[ "$(json "sorted(set(r['name'] for r in d))" "$TMP/r.json")" = "['k1']" ]
}

@test "machines: a host name that would rewrite the line is shown escaped by runs and history" {
	"$PYTHON" - "$TMP/hosts.json" <<-'PY'
	import json, sys
	def run(name, host):
	    return {"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
	            "environment": {"machine.hostname": host, "machine.id": name * 32},
	            "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
	                            "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                         "better": "lower", "samples": [1, 2]}]}]}
	runs = [run("a", "lab\x1b[31m\nred"), run("b", "lab\u202e1"), run("c", "lab\u009b2J")]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	PY
	sp import "$TMP/hosts.json"
	local cmd
	for cmd in runs history; do
		sp $cmd >"$TMP/out"
		refute grep -q $'\x1b\|\xe2\x80\xae\|\xc2\x9b' "$TMP/out"
		grep -qF 'lab\x1b[31m\x0ared' "$TMP/out"
		grep -qF 'lab\u202e1' "$TMP/out"
		grep -qF 'lab\u009b2J' "$TMP/out"
	done
	# JSON keeps the host name as it is
	sp runs --format json >"$TMP/r.json"
	[ "$(json "'lab\u202e1' in [b['machine'] for r in d for b in r['batches']]" "$TMP/r.json")" = True ]
}

@test "machines: history's CSV escapes a host name and machine id as it escapes params" {
	"$PYTHON" - "$TMP/hosts.json" <<-'PY'
	import json, sys
	run = {"name": "a", "started": "2026-01-01T00:00:00Z", "complete": True,
	       "environment": {"machine.hostname": "v\x1b[31mRED", "machine.id": "id\x1b[2J"},
	       "benchmarks": [{"workload": "pipe", "params": {"loops": "5\x1b[2J"},
	                       "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                    "better": "lower", "samples": [1, 2]}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [run]}, open(sys.argv[1], "w"))
	PY
	sp import "$TMP/hosts.json"
	local by
	for by in run batch; do
		sp history --by $by --format csv >"$TMP/out"
		refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/out"
		grep -qF ',loops=5\x1b[2J,' "$TMP/out"
		grep -qF ',v\x1b[31mRED,,id\x1b[2J,0' "$TMP/out"
	done
	# JSON keeps them as they are
	sp history --format json >"$TMP/h.json"
	[ "$(json "d['series'][0]['machine'] == 'v\x1b[31mRED'" "$TMP/h.json")" = True ]
	[ "$(json "d['series'][0]['machine_id'] == 'id\x1b[2J'" "$TMP/h.json")" = True ]
}
