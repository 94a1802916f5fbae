#!/usr/bin/env bash
# The README's Swift snippets are tested as written: every ```swift block of README.md must appear, line for line,
# in order and contiguous, in the README's test file (leading whitespace aside, since the tests indent them).
# Run from the repository's root: .ci/check-readme.sh [README] [TEST FILE]. Exit status 1 names each block missing.
set -euo pipefail
readme="${1:-README.md}"
tests="${2:-Tests/HandyStreamTests/API/ReadmeExamplesTests.swift}"
for file in "$readme" "$tests"; do
    if [ ! -f "$file" ]; then echo "check-readme: no $file (run from the repository's root)"; exit 1; fi
done

python3 - "$readme" "$tests" <<'PYTHON'
import re
import sys

readme_path, tests_path = sys.argv[1], sys.argv[2]

# A fence opens with ``` (or more backticks) and an info string; a block is Swift when the info string's first word
# is `swift`, whatever follows it (```swift title is highlighted as Swift too, so it is checked too).
fence = re.compile(r"^(\s*)(`{3,})(.*)$")
blocks = []  # (line number of the opening fence, [lines])
open_fence = None
with open(readme_path, encoding="utf-8") as readme:
    for number, line in enumerate(readme, start=1):
        line = line.rstrip("\n")
        match = fence.match(line)
        if open_fence is None:
            if match:
                info = match.group(3).strip()
                is_swift = info.split()[0].lower() == "swift" if info else False
                open_fence = (match.group(2), number, is_swift, [])
        elif match and match.group(2).startswith(open_fence[0]) and not match.group(3).strip():
            ticks, start, is_swift, lines = open_fence
            if is_swift:
                blocks.append((start, lines))
            open_fence = None
        else:
            open_fence[3].append(line)
if open_fence is not None:
    print(f"check-readme: {readme_path}:{open_fence[1]}: a code block is never closed")
    sys.exit(1)
if not blocks:
    print(f"check-readme: {readme_path} has no ```swift block")
    sys.exit(1)

with open(tests_path, encoding="utf-8") as tests:
    test_lines = [line.rstrip("\n").strip() for line in tests]


def found(snippet):
    """Whether `snippet` (stripped lines) appears in the test file as a contiguous run of lines."""
    if not snippet:
        return True
    first = snippet[0]
    for start in range(len(test_lines) - len(snippet) + 1):
        if test_lines[start] == first and test_lines[start : start + len(snippet)] == snippet:
            return True
    return False


def first_difference(snippet):
    """How many of the snippet's first lines appear together somewhere: where to look when a block is missing."""
    best = 0
    for start in range(len(test_lines)):
        length = 0
        while (
            length < len(snippet)
            and start + length < len(test_lines)
            and test_lines[start + length] == snippet[length]
        ):
            length += 1
        best = max(best, length)
    return best


failures = 0
for index, (start, lines) in enumerate(blocks, start=1):
    snippet = [line.strip() for line in lines]
    # Blank lines at a block's ends are not part of the snippet.
    while snippet and not snippet[0]:
        snippet.pop(0)
    while snippet and not snippet[-1]:
        snippet.pop()
    if found(snippet):
        continue
    failures += 1
    matched = first_difference(snippet)
    where = start + 1 + next((i for i, line in enumerate(lines) if line.strip()), 0) + matched
    if matched == 0:
        detail = f"its first line is nowhere in {tests_path}"
    else:
        detail = f"its first {matched} lines are there, then {readme_path}:{where} is not"
    print(
        f"check-readme: swift block {index} at {readme_path}:{start} is not in {tests_path} as written: {detail}:"
        f" `{snippet[matched][:100]}`"
    )

if failures:
    print(f"check-readme: {failures} of {len(blocks)} swift blocks not found in {tests_path}")
    sys.exit(1)
print(f"check-readme: all {len(blocks)} swift blocks of {readme_path} are in {tests_path}")
PYTHON
