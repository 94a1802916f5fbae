#!/usr/bin/env bash
# A user's package that depends on HandyStream without the integration traits, in Swift 6 language mode with complete
# concurrency checking and warnings as errors, builds and runs, and resolves and builds no networking: neither
# SwiftNIO, AsyncHTTPClient, Vapor nor Hummingbird is in its Package.resolved or its build.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R "$repo/.ci/consumer/." "$work/"
identity="$(basename "$repo" | tr '[:upper:]' '[:lower:]')"
sed -i "s#REPOSITORY_PATH#$repo#; s#REPOSITORY_IDENTITY#$identity#" "$work/Package.swift"
if ! (cd "$work" && swift build > "$work/build.log" 2>&1); then cat "$work/build.log"; exit 1; fi
output="$(cd "$work" && "$(swift build --show-bin-path)/Consumer")"
passed=0
check() {  # check NAME CONDITION-STATUS
    if [ "$2" -ne 0 ]; then echo "consumer-check $1 failed"; exit 1; fi
    passed=$((passed + 1))
}
[ "$output" = "$(printf 'Tom 3\n2 items, 1 fallback at $[0].price\nids [1, 2]\ntotal 42')" ]; check "runs" $?
! grep -qiE '"identity" *: *"(swift-nio|async-http-client|vapor|hummingbird)"' "$work/Package.resolved" 2>/dev/null; check "resolves no networking" $?
! find "$work/.build" -name 'NIOCore.swiftmodule' -o -name 'AsyncHTTPClient.swiftmodule' | grep -q .; check "builds no networking" $?
echo "consumer-check: $passed passed, 0 failed"
