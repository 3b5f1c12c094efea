#!/usr/bin/env bash
# Fetches the PTX litmus suite the litmus tests run (docs/litmus.md) into DIR, exactly as
# ../shared/litmus/ptx holds it: Dat3M's litmus/PTX folder and its PTX expected-verdict CSVs,
# at a pinned commit, with their licences. Needs network (a git fetch from GitHub); the tests
# never call it: without the suite they are reported as skipped. Then
#   SYMSIM_LITMUS_DIR=DIR ctest --test-dir build -R litmus      (or cmake -DSYMSIM_LITMUS_DIR=DIR)
# Usage: tools/get-litmus-suite.sh DIR [REPOSITORY]   (REPOSITORY: a Dat3M clone or mirror URL)
set -euo pipefail
commit=30640123b88d4fc5ca01403f936d45c54d83a9c1
dest=${1:?usage: tools/get-litmus-suite.sh DIR [REPOSITORY]}
repo=${2:-https://github.com/hernanponcedeleon/Dat3M}
[[ -e $dest/PTXv7_5-expected.csv ]] && { echo "$dest already holds the suite"; exit 0; }

work=$(mktemp -d "${TMPDIR:-/tmp}/symsim-litmus.XXXXXX")
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
git -C "$work" fetch -q --depth 1 "$repo" "$commit"
git -C "$work" -c advice.detachedHead=false checkout -q FETCH_HEAD -- litmus/PTX litmus/LICENSE LICENCE \
    dartagnan/src/test/resources
mkdir -p "$dest"
cp -R "$work"/litmus/PTX/. "$dest"/
cp "$work"/dartagnan/src/test/resources/PTXv*-expected.csv "$dest"/
cp "$work"/LICENCE "$dest"/LICENSE-Dat3M
cp "$work"/litmus/LICENSE "$dest"/LICENSE-litmus-CeCILL-B
echo "PTX litmus suite (Dat3M ${commit:0:9}) in $dest: export SYMSIM_LITMUS_DIR=$(cd "$dest" && pwd)"
