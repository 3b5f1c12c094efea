#!/usr/bin/env bash
# Byte-compares what two builds simulate: for every Ascend scenario (scenarios/ minus nvidia and
# platforms, or the files given), runs `symsim run` with each binary and compares result.json
# without its wall-clock fields (wall_s, tool) and stdout without the wall-time line. A speed
# change must leave both identical (docs/performance.md).
#
#   bench/compare_results.sh BEFORE/bin/symsim AFTER/bin/symsim [SCENARIO.json...]
#
# Runs one scenario at a time (the shared machine has two cores). Exit 0: all identical;
# 1: a difference (the diff is printed); 2: usage.
set -uo pipefail

if (($# < 2)); then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
before=$1 after=$2
shift 2
cd "$(dirname "$0")/.."
if (($#)); then
  scenarios=("$@")
else
  mapfile -t scenarios < <(find scenarios -name '*.json' -not -path 'scenarios/nvidia/*' \
                           -not -path 'scenarios/platforms/*' | sort)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# result.json without the fields that measure the host (jq is not a dependency: python3 is).
normalise_json() {
  python3 - "$1" <<'EOF'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ('wall_s', 'tool')}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
EOF
}

# stdout without wall-clock figures ("wall 0.03 s" in the summary line).
normalise_out() { sed -E 's/wall [0-9.]+ ?(ms|s|us)?//g' "$1"; }

differ=0 n=0
for s in "${scenarios[@]}"; do
  name=$(basename "$s" .json)
  for side in before after; do
    bin=$before
    [[ $side == after ]] && bin=$after
    mkdir -p "$work/$side/$name"
    "$bin" run "$s" --out "$work/$side/$name/out" >"$work/$side/$name/stdout" 2>"$work/$side/$name/stderr"
    echo $? >"$work/$side/$name/rc"
    if [[ -f $work/$side/$name/out/result.json ]]; then
      normalise_json "$work/$side/$name/out/result.json" >"$work/$side/$name/result.norm"
    else
      : >"$work/$side/$name/result.norm"
    fi
    # The output folder's path differs between the two sides: name it the same.
    sed "s#$work/$side/$name/out#OUT#g" "$work/$side/$name/stdout" >"$work/$side/$name/stdout.raw"
    normalise_out "$work/$side/$name/stdout.raw" >"$work/$side/$name/stdout.norm"
  done
  n=$((n + 1))
  for f in rc result.norm stdout.norm; do
    if ! cmp -s "$work/before/$name/$f" "$work/after/$name/$f"; then
      echo "DIFFERS: $s ($f)"
      diff "$work/before/$name/$f" "$work/after/$name/$f" | head -20
      differ=1
    fi
  done
done
if ((differ)); then
  echo "compare_results: differences found ($n scenarios)"
  exit 1
fi
echo "compare_results: $n scenarios identical (result.json minus wall_s/tool, stdout minus wall time)"
