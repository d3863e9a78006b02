#!/usr/bin/env bats
# The reference values the tests compare with are what their committed
# scripts print, not numbers pasted once and left: each generated file or
# block is made again here and compared byte for byte. R is needed only to
# make references, never to test: without it, the R outputs are checked to
# carry the hash of the script as it is now (the script writes it in).

load helpers

top() {
	cd "$BATS_TEST_DIRNAME/../.." && pwd
}

@test "references: test_summary.c's generated block is what summary_reference.py prints" {
	local root
	root=$(top)
	"$PYTHON" "$root/tests/reference/summary_reference.py" > "$TMP/printed"
	sed -n '/BEGIN GENERATED/,/END GENERATED/p' "$root/tests/unit/test_summary.c" > "$TMP/block"
	[ -s "$TMP/block" ]
	cmp "$TMP/printed" "$TMP/block"
}

@test "references: store-v1.json is what store_v1_expected.py derives from store-v1.sql" {
	local root
	root=$(top)
	"$PYTHON" "$root/tests/reference/store_v1_expected.py" > "$TMP/printed"
	cmp "$TMP/printed" "$root/tests/data/store-v1.json"
}

@test "references: R's outputs are those of r_reference.R as it is now" {
	local root sha f
	root=$(top)
	sha=$(sha256sum "$root/tests/reference/r_reference.R" | cut -d' ' -f1)
	for f in tests/unit/r_reference.h tests/unit/r_compare_model.h tests/data/compare-r.json; do
		grep -q "r_reference.R (sha256 $sha) with R [0-9]" "$root/$f" ||
			{ echo "$f: not written by this r_reference.R (run it again)"; return 1; }
	done
	command -v Rscript >/dev/null || skip "no Rscript: outputs checked by the script's hash only"
	(cd "$root" && Rscript tests/reference/r_reference.R "$TMP/out") 2>"$TMP/err" ||
		{ cat "$TMP/err"; return 1; }
	for f in tests/unit/r_reference.h tests/unit/r_compare_model.h \
		 tests/data/compare-runs.json tests/data/compare-r.json; do
		cmp "$TMP/out/$f" "$root/$f"
	done
}

@test "references: test_fairness.c's generated block is what fairness_reference.py prints" {
	local root
	root=$(top)
	"$PYTHON" "$root/tests/reference/fairness_reference.py" > "$TMP/printed"
	sed -n '/BEGIN GENERATED/,/END GENERATED/p' "$root/tests/unit/test_fairness.c" > "$TMP/block"
	[ -s "$TMP/block" ]
	cmp "$TMP/printed" "$TMP/block"
}
