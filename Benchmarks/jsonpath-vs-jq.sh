#!/usr/bin/env bash
# JSONPath queries through `handystream extract` beside the equivalent jq programs, on a document `handystream
# generate` writes (200 MB by default): each pair must print the same lines; then seconds, throughput and peak resident
# memory, medians of ROUNDS runs, the two tools interleaved.
#
#   bash Benchmarks/jsonpath-vs-jq.sh [MEGABYTES] [ROUNDS]
#
# The tool runs as users run it, on every core (--jobs, the machine's cores by default), and with --jobs 1.
# Needs jq and GNU time (installed with apt-get when missing); builds the tool in release.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-200}"
rounds="${2:-3}"

need() {
    command -v "$1" > /dev/null && return
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "$2" > /dev/null
}
need jq jq
[ -x /usr/bin/time ] || need /usr/bin/time time

swift build -c release --product handystream > /dev/null
tool="$(swift build -c release --show-bin-path)/handystream"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
document="$work/items.json"
"$tool" generate --megabytes "$megabytes" "$document" > /dev/null
bytes=$(stat -c %s "$document")

# name | JSONPath | jq program (the same values, in the same order)
queries=(
    "child path|\$.data.items[*].id|.data.items[].id"
    "dot path (extract today)|data.items[*].id|.data.items[].id"
    "filter on members|\$.data.items[?@.price < 2 && @.active == true].id|.data.items[] | select(.price < 2 and .active) | .id"
    "functions in a filter|\$.data.items[?length(@.tags) == 8 && match(@.name, 'item 7.*')].id|.data.items[] | select((.tags | length) == 8 and (.name | test(\"^item 7.*\$\"))) | .id"
    "descendants in items|\$.data.items..email|.data.items | .. | objects | .email // empty"
    "descendants in each item|\$.data.items[*]..email|.data.items[] | .. | objects | .email // empty"
    "descendants everywhere|\$..email|.. | objects | .email // empty"
    "negative slice|\$.data.items[-3:].id|.data.items[-3:][] | .id"
)

# One run: "seconds peak-KiB" of the command, its output in $work/out.$2.
measure() {
    local label="$1" side="$2"
    shift 2
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out.$side"
    cat "$work/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf 'document: %s bytes, %s rounds, medians\n\n' "$bytes" "$rounds"
printf '| query | lines | handystream, %s cores | peak | --jobs 1 | peak | jq | peak | jq / handystream (--jobs 1) |\n' "$(nproc)"
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for entry in "${queries[@]}"; do
    IFS='|' read -r name path program <<< "$entry"
    : > "$work/hs.times"
    : > "$work/one.times"
    : > "$work/jq.times"
    for _ in $(seq "$rounds"); do
        measure "$name" hs "$tool" extract "$path" "$document" >> "$work/hs.times"
        measure "$name" one "$tool" extract --jobs 1 "$path" "$document" >> "$work/one.times"
        measure "$name" jq jq -c "$program" "$document" >> "$work/jq.times"
        for side in hs one; do
            if ! cmp -s "$work/out.$side" "$work/out.jq"; then
                echo "$name: handystream ($side) and jq printed different lines" >&2
                diff "$work/out.$side" "$work/out.jq" | head -5 >&2
                exit 1
            fi
        done
    done
    lines=$(wc -l < "$work/out.hs")
    hs_s=$(cut -d' ' -f1 "$work/hs.times" | median)
    hs_kib=$(cut -d' ' -f2 "$work/hs.times" | median)
    one_s=$(cut -d' ' -f1 "$work/one.times" | median)
    one_kib=$(cut -d' ' -f2 "$work/one.times" | median)
    jq_s=$(cut -d' ' -f1 "$work/jq.times" | median)
    jq_kib=$(cut -d' ' -f2 "$work/jq.times" | median)
    awk -v n="$name" -v p="$path" -v l="$lines" -v b="$bytes" -v hs="$hs_s" -v hk="$hs_kib" -v one="$one_s" \
        -v ok="$one_kib" -v jq="$jq_s" -v jk="$jq_kib" \
        'BEGIN { printf "| %s `%s` | %d | %.2f s, %.0f MB/s | %.0f MB | %.2f s | %.0f MB | %.2f s, %.0f MB/s | %.0f MB | %.1f× (%.1f×) |\n",
            n, p, l, hs, b / hs / 1e6, hk / 1024, one, ok / 1024, jq, b / jq / 1e6, jk / 1024, jq / hs, jq / one }'
done
