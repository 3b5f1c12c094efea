#!/usr/bin/env bash
# Checks that a speed or checker change left every simulated result and report word for word:
# runs every Ascend scenario (scenarios/ minus nvidia/ and platforms/, or the files given) and
# compares result.json without the host's figures (wall_s, tool) and stdout without its wall-time
# lines, and the exit code.
#
#   bench/compare_results.sh BEFORE/bin/symsim AFTER/bin/symsim [SCENARIO.json...]
#   bench/compare_results.sh save  BEFORE/bin/symsim DIR [SCENARIO.json...]   keep for later
#   bench/compare_results.sh check AFTER/bin/symsim  DIR [SCENARIO.json...]   compare with DIR
#
# Call sites are compared relative to the source tree: a kernel object from a shared ccache
# names the tree it was first compiled in, a fresh one names this tree. One scenario at a time
# (the machine is shared). Exit 0: saved, or all identical; 1: a difference (printed); 2: usage.
set -uo pipefail

usage() { sed -n '2,13p' "$0" >&2; exit 2; }
case ${1:-} in
  save | check) (($# >= 3)) || usage; mode=$1 bin=$(realpath "$2") dir=$(realpath -m "$3"); shift 3 ;;
  *) (($# >= 2)) || usage; mode=both before=$(realpath "$1") bin=$(realpath "$2"); shift 2
     dir=$(mktemp -d); trap 'rm -rf "$dir" "$dir.check"' EXIT ;;
esac
cd "$(dirname "$0")/.."
if (($#)); then
  scenarios=("$@")
else
  mapfile -t scenarios < <(find scenarios -name '*.json' -not -path 'scenarios/nvidia/*' \
                           -not -path 'scenarios/platforms/*' | sort)
fi

run_one() {  # binary, scenario, folder: rc, result.norm, stdout.norm
  local exe=$1 s=$2 at=$3 out
  out=$(mktemp -d)
  mkdir -p "$at"
  "$exe" run "$s" --out "$out" >"$at/stdout.raw" 2>"$at/stderr"
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
  [[ $mode == both ]] && run_one "$before" "$s" "$dir/$key"
  if [[ $mode == save ]]; then
    run_one "$bin" "$s" "$dir/$key"
  else
    run_one "$bin" "$s" "$dir.check/$key"
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
  echo "compare_results: saved $n scenarios under $dir"
elif ((differ)); then
  echo "compare_results: differences found ($n scenarios)"
  exit 1
else
  echo "compare_results: $n scenarios identical (result.json minus wall_s/tool, stdout minus wall time)"
fi
