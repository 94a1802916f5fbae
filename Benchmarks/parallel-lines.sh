#!/usr/bin/env bash
# JSON Lines and one large array on one thread and on two: `handystream generate --lines` and `generate` write
# MEGABYTES each (500 by default), the same items; then
#   1. `bench --lines-file` and `bench --array-file` (the elements at data.items): typed models, Codable types,
#      JSONText and validation through forEachValue on 1 and JOBS threads, beside yajl's bare tokenizer on one, ROUNDS
#      interleaved rounds, medians;
#   2. the command-line tool, 1 and JOBS threads interleaved: seconds and peak resident memory of `validate` and
#      `extract` on each, medians, each pair checked to print the same.
#
#   bash Benchmarks/parallel-lines.sh [MEGABYTES] [ROUNDS] [JOBS]
#
# Needs GNU time (installed with apt-get when missing); builds the tool in release.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-500}"
rounds="${2:-3}"
jobs="${3:-2}"

if [ ! -x /usr/bin/time ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq time > /dev/null
fi

swift build -c release --product handystream > /dev/null
tool="$(swift build -c release --show-bin-path)/handystream"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lines="$work/items.jsonl"
"$tool" generate --lines --megabytes "$megabytes" "$lines" > /dev/null
array="$work/items.json"
"$tool" generate --megabytes "$megabytes" "$array" > /dev/null
bytes=$(stat -c %s "$lines")

echo "machine: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
"$tool" bench --lines-file "$lines" --rounds "$rounds" --jobs "$jobs"
echo
"$tool" bench --array-file "$array" --rounds "$rounds" --jobs "$jobs"
echo

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# name | arguments after the tool | input
commands=(
    "validate --lines|validate --lines|$lines"
    "extract id|extract id|$lines"
    "extract whole lines|extract ''|$lines"
    "validate (one array)|validate|$array"
    "extract 'data.items[*]' (one array)|extract 'data.items[*]'|$array"
)
printf 'the command-line tool, %s bytes, %s rounds, medians\n\n' "$bytes" "$rounds"
printf '| command | 1 thread | peak | %s threads | peak | speed-up |\n|---|---:|---:|---:|---:|---:|\n' "$jobs"
for entry in "${commands[@]}"; do
    IFS='|' read -r name arguments input <<< "$entry"
    : > "$work/one.times"
    : > "$work/many.times"
    for _ in $(seq "$rounds"); do
        for side in one many; do
            threads=1
            [ "$side" = many ] && threads="$jobs"
            eval "/usr/bin/time -f '%e %M' -o '$work/time' '$tool' $arguments --jobs $threads '$input'" > "$work/out.$side"
            cat "$work/time" >> "$work/$side.times"
        done
        cmp -s "$work/out.one" "$work/out.many" || { echo "$name: 1 and $jobs threads differ"; exit 1; }
    done
    one_s=$(cut -d' ' -f1 "$work/one.times" | median)
    many_s=$(cut -d' ' -f1 "$work/many.times" | median)
    one_mb=$(cut -d' ' -f2 "$work/one.times" | median | awk '{ printf "%.0f MB", $1 / 1024 }')
    many_mb=$(cut -d' ' -f2 "$work/many.times" | median | awk '{ printf "%.0f MB", $1 / 1024 }')
    awk -v n="$name" -v b="$bytes" -v a="$one_s" -v m="$many_s" -v am="$one_mb" -v mm="$many_mb" 'BEGIN {
        printf "| %s | %.2f s (%.0f MB/s) | %s | %.2f s (%.0f MB/s) | %s | %.2f× |\n", n, a, b / a / 1e6, am, m, b / m / 1e6, mm, a / m
    }'
done
