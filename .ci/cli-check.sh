#!/usr/bin/env bash
# The command-line tool on a small document: extract (one value, elements as JSON Lines, standard input), validate,
# and the error format with its exit status: errors on standard error, 1 for bad input and failed input or output,
# 64 for usage errors.
set -euo pipefail
tool="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"  # absolute: some checks run in another folder
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
usage() {  # usage NAME EXPECTED-PART-OF-STDERR COMMAND...: a usage error, named on standard error, status 64
    local name="$1" message="$2" status=0 err
    shift 2
    err="$("$@" 2>&1 >/dev/null)" || status=$?
    case "$err" in
        *"$message"*) passed=$((passed + 1)) ;;
        *) echo "cli-check $name: expected [$message] in [$err]"; exit 1 ;;
    esac
    expect "$name status" 64 "$status"
}
expect "elements" $'{"id":1,"tags":["a"]}\n{"id":2}' "$("$tool" extract 'data.items[*]' "$work/doc.json")"
expect "single value" '{"id":2}' "$("$tool" extract 'data.items[1]' "$work/doc.json")"
expect "stdin" '["a"]' "$("$tool" extract 'data.items[0].tags' < "$work/doc.json")"
expect "stdin as -" '["a"]' "$("$tool" extract 'data.items[0].tags' - < "$work/doc.json")"
expect "count" '2' "$("$tool" extract 'data.items[*]' "$work/doc.json" | wc -l | tr -d ' ')"
# validate: the good files on standard output, the bad ones on standard error.
status=0; out="$("$tool" validate "$work/doc.json" "$work/bad.json" 2>"$work/err")" || status=$?
expect "validate output" "$work/doc.json: ok" "$out"
expect "validate errors" "$work/bad.json:1:14: unexpected token at \$.data[1]" "$(cat "$work/err")"
expect "validate status" 1 "$status"
expect "validate stdin" "<stdin>: ok" "$("$tool" validate < "$work/doc.json")"
expect "validate stdin as -" "<stdin>: ok" "$("$tool" validate - < "$work/doc.json")"
fails "validate stdin error" "<stdin>:1:14: unexpected token at \$.data[1]" "$tool" validate - < "$work/bad.json"
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
fails "directory" "$work: cannot read: Is a directory" "$tool" extract a "$work"
# A missing file: one message, whichever command meets it.
fails "missing, extract" "$work/none.json: cannot read: No such file or directory" "$tool" extract a "$work/none.json"
fails "missing, validate" "$work/none.json: cannot read: No such file or directory" "$tool" validate "$work/none.json"
fails "missing corpus" "Benchmarks/Corpus/twitter.json: cannot read: No such file or directory"$'\n'"handystream bench: \
the corpus is the repository's Benchmarks/Corpus: run bench from the repository's root, or pass --corpus FOLDER" \
    sh -c 'cd "$1" && exec "$0" bench --rounds 1' "$tool" "$work"
# An error names where it is, as validate's do: in a document cut short deep inside `statuses`, `search_metadata`
# is never reached, and `statuses[1].user` is skipped while `statuses[*].id` is extracted.
printf '{"statuses": [{"id": 1}, {"id": 2, "user": {"na' > "$work/cut.json"
fails "error place" "$work/cut.json:1:48: unexpected end of input at \$.statuses" \
    "$tool" extract search_metadata "$work/cut.json"
fails "error place, wildcard" "$work/cut.json:1:48: unexpected end of input at \$.statuses[1].user" \
    "$tool" extract 'statuses[*].id' "$work/cut.json"
# Usage errors: status 64 and the problem named; never a trap, never a silent success.
usage "bench --rounds 0" "--rounds must be at least 1" "$tool" bench --rounds 0
usage "bench --only" "--only foo names no contender" "$tool" bench --only foo
usage "bench --document" "--document foo names none of" "$tool" bench --document foo
usage "bench --only, stream" "--only foo names no contender" "$tool" bench --stream-file "$work/doc.json" --only foo
usage "invalid path" "invalid path 'data[x]'" "$tool" extract 'data[x]' "$work/doc.json"
usage "unknown option" "Unknown option '--frobnicate'" "$tool" extract --frobnicate a "$work/doc.json"
# --version: a version number on standard output, status 0.
version="$("$tool" --version)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "cli-check --version: got [$version]"; exit 1; }
passed=$((passed + 1))
if [ -w /dev/full ]; then
    fails "full disk" "<output>: cannot write the output: No space left on device" \
        sh -c '"$0" extract a "$1" > /dev/full' "$tool" "$work/lines.jsonl"
fi
# Wildcards anywhere: every match, one per line, in document order.
printf '{"s": [{"u": {"n": 1}, "t": [{"x": "a"}]}, {"u": {"n": 2}, "t": [{"x": "b"}, {"x": "c"}]}], "r": {"A": 1, "B": 2}}' > "$work/wild.json"
expect "wildcard" $'1\n2' "$("$tool" extract 's[*].u.n' "$work/wild.json")"
expect "two wildcards" $'"a"\n"b"\n"c"' "$("$tool" extract 's[*].t[*].x' "$work/wild.json")"
expect "JSONPath" $'"a"\n"b"\n"c"' "$("$tool" extract '$.s[*].t.*.x' "$work/wild.json")"
expect "JSONPath filter" '2' "$("$tool" extract '$.s[?@.u.n > 1].u.n' "$work/wild.json")"
expect "JSONPath descendants" $'"a"\n"b"\n"c"' "$("$tool" extract '$..x' "$work/wild.json")"
expect "JSONPath from the end" '{"x":"c"}' "$("$tool" extract '$.s[-1].t[-1:]' "$work/wild.json")"
expect "normalized paths" $'$[\'s\'][1][\'t\'][1]\t{"x":"c"}' "$("$tool" extract --paths '$.s[-1].t[-1:]' "$work/wild.json")"
usage "invalid JSONPath" "did you mean '=='?" "$tool" extract '$.s[?@.u = 1]' "$work/wild.json"
expect "members" $'1\n2' "$("$tool" extract 'r.*' "$work/wild.json")"
# JSON Lines on several threads (--jobs, all cores by default): one thread's output and first error.
"$tool" generate --lines --megabytes 3 "$work/big.jsonl" > /dev/null
expect "generated lines" 3840 "$(wc -l < "$work/big.jsonl" | tr -d ' ')"
one="$("$tool" extract --jobs 1 --paths 'owner.email' "$work/big.jsonl" | cksum)"
expect "--jobs 3" "$one" "$("$tool" extract --jobs 3 --paths 'owner.email' "$work/big.jsonl" | cksum)"
expect "--jobs from stdin" "$one" "$("$tool" extract --jobs 2 --paths 'owner.email' < "$work/big.jsonl" | cksum)"
expect "--jobs, pretty document" $'1\n2' "$(printf '{"s": [\n {"n": 1},\n {"n": 2}\n]}\n' | "$tool" extract --jobs 2 's[*].n')"
expect "validate --lines" "$work/big.jsonl: ok" "$("$tool" validate --lines "$work/big.jsonl")"
sed '2900s/"price":/"price":,/' "$work/big.jsonl" > "$work/bad.jsonl"
fails "validate --lines, bad line" "$work/bad.jsonl:2900:40: unexpected token at \$.price" \
    "$tool" validate --lines --jobs 2 "$work/bad.jsonl"
fails "validate, not one document" "$work/big.jsonl:2:2: unexpected data after the JSON value at \$" \
    "$tool" validate "$work/big.jsonl"
# One large array on several threads: one thread's output and first error.
"$tool" generate --megabytes 3 "$work/array.json" > /dev/null
one="$("$tool" extract --jobs 1 --paths 'data.items[*]' "$work/array.json" | cksum)"
expect "--jobs 2, one array" "$one" "$("$tool" extract --jobs 2 --paths 'data.items[*]' "$work/array.json" | cksum)"
expect "validate --jobs 2, one array" "$work/array.json: ok" "$("$tool" validate --jobs 2 "$work/array.json")"
query='$.data.items[?@.price < 2 && length(@.tags) > 2].owner.email'
one="$("$tool" extract --jobs 1 --paths "$query" "$work/array.json" | cksum)"
expect "--jobs 2, a filter into one array" "$one" "$("$tool" extract --jobs 2 --paths "$query" "$work/array.json" | cksum)"
sed 's/"price":/"price":,/2900' "$work/array.json" > "$work/bad-array.json"
fails "validate --jobs 2, one array, bad element" "$("$tool" validate --jobs 1 "$work/bad-array.json" 2>&1)" \
    "$tool" validate --jobs 2 "$work/bad-array.json"
fails "extract --jobs 2, one array, bad element" \
    "$("$tool" extract --jobs 1 'data.items[*].id' "$work/bad-array.json" 2>&1 >/dev/null)" \
    "$tool" extract --jobs 2 'data.items[*].id' "$work/bad-array.json"
usage "--jobs 0" "--jobs must be 1 to 1024" "$tool" extract --jobs 0 a "$work/lines.jsonl"
echo "cli-check: $passed passed, 0 failed"
