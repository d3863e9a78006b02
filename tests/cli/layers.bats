#!/usr/bin/env bats
# The layers of doc/design.md hold in src/: each directory includes only
# from those its row of "Layers" names, each of a lower layer, only a store
# driver includes from its own directory, and every directory of src/store/
# is a driver that the table of "The store" names (tests/check_layers.py).

load helpers

CHECK="$BATS_TEST_DIRNAME/../check_layers.py"
DESIGN="$BATS_TEST_DIRNAME/../../doc/design.md"

@test "layers: every include of src/ keeps to doc/design.md's layers" {
	run "$PYTHON" "$CHECK" "$DESIGN" "$BATS_TEST_DIRNAME/../../src"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "layers: an include upward, or across a store driver's walls, is found" {
	mkdir -p "$TMP/src/stats" "$TMP/src/store/sqlite" "$TMP/src/store/postgres" "$TMP/src/util"
	echo '#include "util/xalloc.h"' > "$TMP/src/stats/ok.c"
	echo '#include "store/store.h"' > "$TMP/src/stats/up.c"
	echo '#include "stats/sort.h"' > "$TMP/src/util/up.c"
	echo '#include "store/sql.h"' > "$TMP/src/store/sqlite/up.c"
	echo '#include "store/sqlite/sqlite.h"' > "$TMP/src/store/into.c"
	run "$PYTHON" "$CHECK" "$DESIGN" "$TMP/src"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 4 ] || { echo "$output"; false; }
	[[ "$output" == *"src/stats/up.c includes store/"* ]]
	[[ "$output" == *"src/util/up.c includes stats/"* ]]
	[[ "$output" == *"src/store/sqlite/up.c includes store/sql.h"* ]]
	[[ "$output" == *"src/store/into.c includes store/sqlite/sqlite.h"* ]]
}

@test "layers: a store driver's directory that doc/design.md's table of drivers lacks is found" {
	mkdir -p "$TMP/src/store/sqlite" "$TMP/src/store/postgres"
	run "$PYTHON" "$CHECK" "$DESIGN" "$TMP/src"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# a new driver, as HACKING.md adds one: held to the table until it names it
	mkdir "$TMP/src/store/mem"
	echo '#include "store/sql.h"' > "$TMP/src/store/mem/up.c"
	run "$PYTHON" "$CHECK" "$DESIGN" "$TMP/src"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"src/store/mem/: a driver's directory that the drivers' row"* ]]
	# and a row naming a directory that is gone
	rmdir "$TMP/src/store/postgres"
	rm -r "$TMP/src/store/mem"
	run "$PYTHON" "$CHECK" "$DESIGN" "$TMP/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"names postgres/, which "*"src/store lacks"* ]] || { echo "$output"; false; }
}
