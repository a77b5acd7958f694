#!/usr/bin/env bash
# Runs the README's test command in a clone of this checkout placed where no
# ../shared stands beside it, as a user's clone is (issue 26): every test that
# reads ../shared must skip there, not fail. Called by .ci/run; runs the whole
# suite (about 7 minutes on 2 cores), well inside CI's 90.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
parent="$(mktemp -d "${TMPDIR:-/tmp}/svc-no-shared.XXXXXX")"
trap 'rm -rf "$parent"' EXIT
clone="$parent/svc"
git clone --quiet --no-hardlinks "$src" "$clone"
if [ -e "$parent/shared" ]; then
  echo "ci: $parent/shared exists; the clone must have no ../shared" >&2
  exit 1
fi
echo "ci: npm test in a clone without ../shared ($clone)"
cd "$clone"
npm ci --no-audit --no-fund
npm test
