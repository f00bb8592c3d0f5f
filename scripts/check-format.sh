#!/usr/bin/env bash
# Fails when a tracked C++ source differs from what clang-format (.clang-format) would write.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find . -name '*.cpp' -o -name '*.h')
bad=0
for file in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$file" >/dev/null 2>&1; then
    echo "not clang-formatted: $file (run: clang-format -i $file)"
    bad=$((bad + 1))
  fi
done
echo "clang-format: ${#files[@]} files checked, $bad not formatted"
[[ $bad -eq 0 ]]
