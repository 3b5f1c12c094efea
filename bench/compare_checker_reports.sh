#!/usr/bin/env bash
# Checks that a checker change left every report word for word: runs every Ascend scenario
# (scenarios/ minus nvidia/ and platforms/, or the files given) with one `symsim` binary and
# keeps result.json (without wall_s and tool, the host's figures) and stdout (without its wall
# time lines) under DIR; `check` runs another binary and compares with what `save` kept.
#
#   bench/compare_checker_reports.sh save  BEFORE/bin/symsim DIR [SCENARIO.json...]
#   bench/compare_checker_reports.sh check AFTER/bin/symsim  DIR [SCENARIO.json...]
#
# Call sites are compared relative to the source tree: a kernel object from the shared ccache
# names the tree it was first compiled in (/work/main/kernels/...), a fresh one names this
# tree, and the sites differ only by that prefix. One scenario at a time (the machine is shared). Exit 0: saved, or all identical; 1: a
# difference (printed); 2: usage.
set -uo pipefail

if (($# < 3)) || [[ $1 != save && $1 != check ]]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
mode=$1 bin=$(realpath "$2") dir=$(realpath -m "$3")
shift 3
cd "$(dirname "$0")/.."
if (($#)); then
  scenarios=("$@")
else
  mapfile -t scenarios < <(find scenarios -name '*.json' -not -path 'scenarios/nvidia/*' \
                           -not -path 'scenarios/platforms/*' | sort)
fi

run_one() {  # scenario, folder: rc, result.norm, stdout.norm
  local s=$1 at=$2 out
  out=$(mktemp -d)
  mkdir -p "$at"
  "$bin" run "$s" --out "$out" >"$at/stdout.raw" 2>"$at/stderr"
  echo $? >"$at/rc"
  if [[ -f $out/result.json ]]; then
    python3 - "$out/result.json" >"$at/result.norm" <<'EOF'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ('wall_s', 'tool')}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
EOF
    sed -Ei 's#/[^ :()"]*/(kernels/)#\1#g' "$at/result.norm"
  else
    : >"$at/result.norm"
  fi
  sed -E "s#$out#OUT#g; s#/[^ :()\"]*/(kernels/)#\\1#g" "$at/stdout.raw" | grep -viE 'wall|per (cpu-)?second' >"$at/stdout.norm" || true
  rm -rf "$out" "$at/stdout.raw"
}

differ=0 n=0
for s in "${scenarios[@]}"; do
  key=${s//\//_}
  if [[ $mode == save ]]; then
    run_one "$s" "$dir/$key"
  else
    run_one "$s" "$dir.check/$key"
    for f in rc result.norm stdout.norm; do
      if ! cmp -s "$dir/$key/$f" "$dir.check/$key/$f"; then
        echo "DIFFERS: $s ($f)"
        diff "$dir/$key/$f" "$dir.check/$key/$f" | head -20
        differ=1
      fi
    done
  fi
  n=$((n + 1))
done
if [[ $mode == save ]]; then
  echo "compare_checker_reports: saved $n scenarios under $dir"
elif ((differ)); then
  echo "compare_checker_reports: differences found ($n scenarios)"
  exit 1
else
  echo "compare_checker_reports: $n scenarios identical (result.json minus wall_s/tool, stdout minus wall time)"
fi
