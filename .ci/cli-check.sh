#!/usr/bin/env bash
# The command-line tool on a small document: extract (one value, elements as JSON Lines, standard input), validate,
# and the error format with its exit status.
set -euo pipefail
tool="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '{"data": {"items": [{"id": 1, "tags": ["a"]}, {"id": 2}], "next": null}}' > "$work/doc.json"
printf '{"data": [1,,2]}' > "$work/bad.json"

passed=0
expect() {  # expect NAME EXPECTED ACTUAL
    if [ "$2" != "$3" ]; then echo "cli-check $1: expected [$2], got [$3]"; exit 1; fi
    passed=$((passed + 1))
}
fails() {  # fails NAME EXPECTED-STDERR COMMAND...: the command writes that error and exits with status 1
    local name="$1" message="$2" status=0 err
    shift 2
    err="$("$@" 2>&1 >/dev/null)" || status=$?
    expect "$name" "$message" "$err"
    expect "$name status" 1 "$status"
}
expect "elements" $'{"id":1,"tags":["a"]}\n{"id":2}' "$("$tool" extract 'data.items[*]' "$work/doc.json")"
expect "single value" '{"id":2}' "$("$tool" extract 'data.items[1]' "$work/doc.json")"
expect "stdin" '["a"]' "$("$tool" extract 'data.items[0].tags' < "$work/doc.json")"
expect "count" '2' "$("$tool" extract 'data.items[*]' "$work/doc.json" | wc -l | tr -d ' ')"
status=0; out="$("$tool" validate "$work/doc.json" "$work/bad.json")" || status=$?
expect "validate output" "$work/doc.json: ok"$'\n'"$work/bad.json:1:14: unexpected token at \$.data[1]" "$out"
expect "validate status" 1 "$status"
fails "error" "$work/doc.json:1:72: path 'data.missing' not found: no key 'missing' in the object at \$.data" \
    "$tool" extract data.missing "$work/doc.json"
# JSON Lines: the path applies to each line; the empty path is each line itself.
printf '{"a":1}\n{"a":[2,3]}\n{"a":{"b":4}}\n' > "$work/lines.jsonl"
expect "lines" $'1\n[2,3]\n{"b":4}' "$("$tool" extract a "$work/lines.jsonl")"
expect "lines, empty path" $'{"a":1}\n{"a":[2,3]}\n{"a":{"b":4}}' "$("$tool" extract '' "$work/lines.jsonl")"
# A bad line after good ones: the good lines are printed first, then the error, and the status is 1.
printf '{"a":1}\n{"a":2}\n{"a":,}\n{"a":4}\n' > "$work/badline.jsonl"
status=0; out="$("$tool" extract a "$work/badline.jsonl" 2>/dev/null)" || status=$?
expect "good lines before a bad one" $'1\n2' "$out"
expect "bad line status" 1 "$status"
# Input and output that fail: an error and a non-zero status, never a silent success.
fails "directory" "$work: cannot read $work: Is a directory" "$tool" extract a "$work"
if [ -w /dev/full ]; then
    fails "full disk" "<output>: cannot write the output: No space left on device" \
        sh -c '"$0" extract a "$1" > /dev/full' "$tool" "$work/lines.jsonl"
fi
# Wildcards anywhere: every match, one per line, in document order.
printf '{"s": [{"u": {"n": 1}, "t": [{"x": "a"}]}, {"u": {"n": 2}, "t": [{"x": "b"}, {"x": "c"}]}], "r": {"A": 1, "B": 2}}' > "$work/wild.json"
expect "wildcard" $'1\n2' "$("$tool" extract 's[*].u.n' "$work/wild.json")"
expect "two wildcards" $'"a"\n"b"\n"c"' "$("$tool" extract 's[*].t[*].x' "$work/wild.json")"
expect "members" $'1\n2' "$("$tool" extract 'r.*' "$work/wild.json")"
echo "cli-check: $passed passed, 0 failed"
