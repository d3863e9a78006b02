#!/usr/bin/env bats
# Golden outputs: every command that reads a store prints, byte for byte,
# what tests/golden/expected holds, on SQLite and on PostgreSQL
# (tests/golden/make.sh says what is run and how to make the set again
# after a change of an output made on purpose).

load helpers
pg_file

@test "golden: every reading command prints what tests/golden/expected holds" {
	"$BATS_TEST_DIRNAME/../golden/make.sh" "$TMP/golden"
	diff -r "$BATS_TEST_DIRNAME/../golden/expected" "$TMP/golden"
}
