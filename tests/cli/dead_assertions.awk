# Print the assertions of bats files that can never fail a test: a negated
# command (`! cmd`), or tests chained with && (`[ a ] && [ b ]`), that is not
# the last command of its test or function. bats runs a test under errexit,
# and errexit ignores a negated command and every command of an && list but
# the last; only when such a line ends the function does its status become
# the function's. Write `refute cmd` (helpers.bash) and one test per line.
# usage: awk -f dead_assertions.awk FILE...   (prints FILE:LINE: text)

function significant(line)
{
	return line !~ /^[ \t]*(#.*)?$/
}

# The line that follows a candidate decides: only a function's closing
# brace (at the start of a line) lets the candidate's status count.
function settle(next_line)
{
	if (pending && next_line !~ /^}/)
		printf "%s:%d: %s\n", pending_file, pending_nr, pending_text
	pending = 0
}

FNR == 1 { settle("}"); logical = "" }

{
	if (logical == "" && !significant($0))
		next
	if (logical == "") {
		settle($0)
		first_nr = FNR
		first_text = $0
	}
	# a command continued with a backslash is judged whole
	logical = logical $0
	if ($0 ~ /\\$/)
		next
	if ((logical ~ /^[ \t]*! / && logical !~ /\|\||&&/) ||
	    (logical ~ /^[ \t]*\[\[? .*\]\]? && \[\[? .*\]\]?[ \t]*$/ &&
	     logical !~ /\|\||return/)) {
		pending = 1
		pending_file = FILENAME
		pending_nr = first_nr
		pending_text = first_text
	}
	logical = ""
}

END { settle("}") }
