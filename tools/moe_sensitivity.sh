#!/bin/bash
# How much the simulated MoE dispatch and combine latencies move when one platform parameter
# without a primitive-level source is raised by 10% (docs/moe.md, docs/ascend-calibration.md).
#
#   tools/moe_sensitivity.sh BUILD_DIR SCENARIO VARIANT [PARAM ...]
#
# Runs the scenario once as it is, then once per parameter with that parameter x 1.1 (values
# from the scenario's platform preset), one run at a time; prints a markdown table: parameter,
# value, dispatch and combine change in percent. Default parameters: every assumed or fitted one
# of the cloudmatrix384 preset that a MoE kernel touches.
set -euo pipefail
build=${1:?usage: moe_sensitivity.sh BUILD_DIR SCENARIO VARIANT [PARAM ...]}
scenario=${2:?scenario}
variant=${3:?variant}
shift 3
params=("$@")
if [ ${#params[@]} -eq 0 ]; then
  params=(aiv.scalar_op_ns aiv.mte_latency_ns aiv.mte_gbytes_per_s aiv.dcci_ns aiv.st_dev_ns aiv.ld_dev_ns
          aiv.vector_issue_ns aiv.vector_repeat_ns hbm.latency_ns udma.doorbell_ns udma.wqe_ns
          fabric.port_latency_ns fabric.uplink_latency_ns fabric.l1_switch_ns fabric.l2_switch_ns fabric.path_skew_ns)
fi
root=$(cd "$(dirname "$0")/.." && pwd)
preset="$root/scenarios/platforms/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["platform"])' "$scenario").json"

latencies() {  # dispatch_us combine_us of one run
  "$build/bin/symsim-bench" moe "$scenario" "kernel.args.variant=$variant" "$@" |
    sed -n 's/.* dispatch_us=\([0-9.]*\) combine_us=\([0-9.]*\) .*/\1 \2/p'
}

read -r d0 c0 < <(latencies)
echo "base ($scenario, variant $variant): dispatch $d0 us, combine $c0 us"
echo
echo "| parameter | value | +10% | dispatch change | combine change |"
echo "|---|---|---|---|---|"
for p in "${params[@]}"; do
  v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["params"][sys.argv[2]]["value"])' "$preset" "$p")
  v2=$(python3 -c "print(f'{$v * 1.1:.6g}')")
  read -r d c < <(latencies "platform.$p=$v2")
  python3 -c "print(f'| \`$p\` | $v | $v2 | {($d/$d0-1)*100:+.2f}% | {($c/$c0-1)*100:+.2f}% |')"
done
