#!/usr/bin/env bash
# One case of what the command line tells a user:
#   cli_messages.sh CASE SYMSIM SOURCE_DIR WORK_DIR
# Each case runs one symsim command and checks its exit code, its output and what it wrote.
set -u
case_name=$1 symsim=$2 src=$3 work=$4/$1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fail() { echo "FAIL [$case_name]: $*"; echo "--- stdout:"; cat out.txt 2>/dev/null; echo "--- stderr:"; cat err.txt 2>/dev/null; exit 1; }
# expect RC: runs "$@", checks the exit code; output in out.txt / err.txt.
expect() {
  local want=$1; shift
  echo "+ $*"
  "$@" > out.txt 2> err.txt
  local rc=$?
  [ "$rc" = "$want" ] || fail "exit code $rc, expected $want"
}
has() { grep -qF -- "$2" "$1" || fail "$1 does not contain '$2'"; }
lacks() { ! grep -qF -- "$2" "$1" || fail "$1 contains '$2'"; }
# py FILE CODE: runs python on result.json-like FILE bound to `r`; an assertion failure fails the case.
py() { python3 - "$1" <<PYEOF || fail "check on $1 failed"
import json, sys
r = json.load(open(sys.argv[1]))
$2
PYEOF
}

case $case_name in
  nvidia_trap_exits_1)
    # A GPU trap is an expectation failure (exit 1), summarised like an Ascend trap, never exit 3.
    expect 1 "$symsim" run "$src/scenarios/nvidia/tma_probe_2gpu.json" --set kernel.args.tx_shortfall=16 --out out
    lacks err.txt "internal error"
    has out.txt "trap: pe 0 (kernel tma_probe): trap in CTA 0 thread 0 at"
    has out.txt "FAILED: gpu 0: kernel tma_probe ran without trapping"
    py out/result.json '
assert r["status"] == "fail"
assert [(t["pe"], t["kernel"]) for t in r["traps"]] == [(0, "tma_probe"), (1, "tma_probe")], r["traps"]
assert all(t["reason"].startswith("trap in CTA 0 thread 0 at ") and "16 more transaction bytes" in t["reason"] for t in r["traps"])
assert all("core" not in t and "time_ns" not in t for t in r["traps"])  # the GPU trap record has neither
' ;;
  list_platforms_both_families)
    expect 0 "$symsim" list platforms
    has out.txt "ascend910c           [ascend]"
    has out.txt "h800                 [nvidia]"
    has out.txt "ascend parameters"
    has out.txt "nvidia parameters"
    has out.txt "    udma.sq_depth_bb"
    has out.txt "    nic.sq_depth"
    has out.txt "    sm.count" ;;
  list_without_argument)
    expect 0 "$symsim" list
    for w in kernels platforms faults hazards checkers stats; do has out.txt "symsim list $w"; done
    lacks err.txt "required"
    expect 2 "$symsim" list kernel
    has err.txt "cannot list 'kernel'"
    has err.txt "symsim list kernels" ;;
  list_json_from_registrations)
    # Each catalog as JSON, read from the registrations beside the code (sim/catalog).
    expect 0 "$symsim" list hazards --json
    py out.txt '
ids = {h["id"]: h for h in r}
assert ids["sq_overrun"]["family"] == "ascend, nvidia", ids["sq_overrun"]
assert ids["pipe_sync_missing"]["family"] == "ascend"
assert ids["deadlock"]["family"] == "ascend, nvidia"
assert all(h["doc"] for h in r)
'
    expect 0 "$symsim" list checkers --json
    py out.txt '
c = {(x["name"], x["family"]): x["hazards"] for x in r}
assert c[("nvidia/nic_sq_slot", "nvidia")] == ["sq_overrun", "torn_wqe"], c
assert c[("completion_errors", "ascend")] == ["token_mismatch", "bad_remote_addr", "relay_unreachable"]
'
    expect 0 "$symsim" list platforms --json
    py out.txt '
fam = {f["name"]: {p["key"]: p["unit"] for p in f["parameters"]} for f in r["families"]}
assert fam["nvidia"]["nvlink.gbytes_per_s"] == "GB/s" and fam["ascend"]["udma.sq_depth_bb"] == "WQEBB", fam
assert all(u for f in fam.values() for u in f.values())
'
    expect 0 "$symsim" list stats --json
    py out.txt 'assert {"where": "pes[].engine", "name": "busy_ns", "unit": "ns"}.items() <= next(s for s in r if s["where"] == "pes[].engine" and s["name"] == "busy_ns").items()'
    expect 0 "$symsim" list faults
    has out.txt "torn_block                   [ascend]" ;;
  nvidia_checker_off_by_name)
    # An NVIDIA hazard comes from its registered checker, which the scenario switches off by id.
    expect 0 "$symsim" run "$src/scenarios/nvidia/rdma_sq_overrun.json" --out on
    py on/result.json '
h = [(x["id"], x["pe"], x["qp"], x["wqe"]) for x in r["hazards"]]
assert h == [("sq_overrun", 0, 0, 0)], h
'
    expect 1 "$symsim" run "$src/scenarios/nvidia/rdma_sq_overrun.json" --set checkers.sq_overrun=false --out off
    py off/result.json 'assert r["hazards"] == [], r["hazards"]' ;;
  unknown_kernel_names_kernel_lib)
    printf '%s\n' '{"symsim":1,"name":"k","platform":"ascend910c","pes":2,"kernel":{"name":"my_kernel"}}' > s.json
    expect 2 "$symsim" validate s.json
    has err.txt "s.json"
    has err.txt "/kernel/name"
    has err.txt "unknown kernel 'my_kernel'"
    has err.txt "--kernel-lib" ;;
  hazard_line_no_empty_fields)
    # A timeout has no QP, WQE or address: the line says so by leaving them out.
    expect 0 "$symsim" run "$src/scenarios/hazards/timeout_buggy.json" --out out
    has out.txt "  hazard timeout pe "
    lacks out.txt "addr  at"
    lacks out.txt "qp -1"
    lacks out.txt "wqe -1" ;;
  hazard_repeats_agree)
    expect 0 "$symsim" run "$src/scenarios/hazards/cq_overflow_buggy.json" --out out
    lacks out.txt "[x"
    py out/result.json '
lines = [l for l in open("out.txt") if l.startswith("  hazard ")]
shown = r["hazards"][:10]
assert len(lines) == len(shown) and any("repeats" in h for h in shown), (len(lines), len(shown))
for line, h in zip(lines, shown):
    if "repeats" in h:
        assert "[repeats %d]" % h["repeats"] in line, (h["repeats"], line)
    else:
        assert "[repeats" not in line, line
' ;;
  call_sites_one_kind)
    # Sites relative to the source root, whatever the build left in __FILE__ (a compiler cache
    # makes them relative to a build folder), in the site field and inside details alike.
    expect 0 "$symsim" run "$src/scenarios/hazards/cq_overflow_buggy.json" --out out
    # A compiler cache shared between checkouts of this repository can hand this build an
    # object compiled in another checkout, whose __FILE__ is then that checkout's absolute path:
    # outside this source root, so it stays absolute. Either way, all of one kind.
    py out/result.json '
sites = {h["site"] for h in r["hazards"] if "site" in h}
want = "kernels/hazards/cq_overflow/cq_overflow_kernel.cpp:23"
other_checkout = len(sites) == 1 and next(iter(sites)).startswith("/") and next(iter(sites)).endswith("/" + want)
assert sites == {want} or other_checkout, sites
'
    expect 0 "$symsim" run "$src/scenarios/hazards/fault_drop_doorbell.json" --out out2
    py out2/result.json '
import re
text = " ".join(h["detail"] + " " + h.get("site", "") for h in r["hazards"])
paths = re.findall(r"[^ ()]*kernels/udma/[^ :]*\.cpp", text)
assert paths and (all(p.startswith("kernels/") for p in paths) or all(p.startswith("/") for p in paths)), paths
assert not any(p.startswith("../") for p in paths), paths
' ;;
  deadlock_arrival_order)
    # The count in a barrier wait is the core's place in the arrival order: said as such.
    expect 0 "$symsim" run "$src/scenarios/hazards/fault_drop_doorbell.json" --out out
    lacks out/result.json " arrived)"
    py out/result.json '
waits = [h["detail"] for h in r["hazards"] if h["id"] == "deadlock" and "barrier_all_vec" in h["detail"]]
assert waits and all("(it was arrival 1 of the 2 the barrier waits for)" in d for d in waits), waits
' ;;
  integer_args_stay_integers)
    expect 0 "$symsim" run "$src/scenarios/udma/udma_put_signal_2pe.json" --set kernel.args.bytes=65536 --out out
    lacks out/result.json "65536.0"
    py out/result.json '
args = r["config"]["kernel"]["args"]
assert args["bytes"] == 65536 and isinstance(args["bytes"], int), args
params = r["config"]["platform"]["params"]
assert isinstance(params["udma.sq_depth_bb"]["value"], int), params["udma.sq_depth_bb"]
assert isinstance(params["fabric.port_latency_ns"]["value"], float) or "fabric.port_latency_ns" not in params
' ;;
  result_matches_schema)
    # Results of both families (a trap included) validate against docs/schema/result.schema.json.
    # Debian's python3-jsonschema is the system interpreter's (a pyenv python3 may not see it).
    pyjs=python3; [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import jsonschema" 2>/dev/null && pyjs=/usr/bin/python3
    $pyjs -c "import jsonschema" 2>/dev/null || { echo "python3-jsonschema missing"; exit 77; }
    expect 1 "$symsim" run "$src/scenarios/nvidia/tma_probe_2gpu.json" --set kernel.args.tx_shortfall=16 --out nv
    expect 0 "$symsim" run "$src/scenarios/hazards/cq_overflow_buggy.json" --out asc
    for r in nv asc; do
      $pyjs - "$src/docs/schema/result.schema.json" $r/result.json <<'PYEOF' || fail "$r/result.json does not match the schema"
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:])
errors = list(jsonschema.Draft7Validator(schema).iter_errors(doc))
for e in errors: print("/" + "/".join(map(str, e.absolute_path)), e.message)
sys.exit(1 if errors else 0)
PYEOF
    done ;;
  schema_error_names_pointer)
    printf '%s\n' '{"symsim":1,"name":"k","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put"},"faults":[{"kind":"drop_doorbell","pe":[0,"one"]}]}' > s.json
    expect 2 "$symsim" validate s.json
    has err.txt "s.json: /faults/0/pe/1: expected an integer, got string"
    printf '%s\n' '{"symsim":1,"name":"k","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put"},"faults":[{"kind":"drop_doorbell","delay_ns":5}]}' > s.json
    expect 2 "$symsim" validate s.json
    has err.txt "s.json: /faults/0/delay_ns: unknown key 'delay_ns'"
    printf '%s\n' '{"symsim":1,"name":"k","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put"},"expect":{"checks":"maybe"}}' > s.json
    expect 2 "$symsim" validate s.json
    has err.txt "s.json: /expect/checks: expected one of \"pass\", \"fail\", \"any\"" ;;
  set_creates_only_known_paths)
    # --set follows the schema: a new key only where the schema has one.
    expect 2 "$symsim" validate "$src/scenarios/udma/udma_put_signal_2pe.json" --set expect.hazard=1
    has err.txt "--set expect.hazard"
    has err.txt "/expect/hazard"
    expect 0 "$symsim" validate "$src/scenarios/udma/udma_put_signal_2pe.json" --set expect.trap=false --set platform.hbm.bytes=68719476736 ;;
  sweep_schema_error)
    printf '%s\n' '{"symsim_sweep":1,"name":"s","scenarios":["a.json"],"seeds":[1,-2]}' > sw.json
    expect 2 "$symsim" sweep sw.json --out o
    has err.txt "sw.json"
    has err.txt "/seeds/1" ;;
  teardown_left_to_exit)
    # A one-shot run leaves its state to the process's exit (sim/runner/one_shot_exit.h); with
    # SYMSIM_FULL_TEARDOWN=1 it tears down first. Either way the same exit code, stdout (but the
    # wall time), stderr, result (but wall_s) and trace; handlers registered with atexit still
    # print. Cases: a pass with a trace, a deadlock expected by the scenario, a trap (exit 1),
    # MoE (the combine check on its helper thread).
    for spec in "0|$src/scenarios/udma/udma_put_signal_2pe.json|--trace|t.json" \
                "0|$src/scenarios/hazards/fault_drop_doorbell.json" \
                "1|$src/scenarios/nvidia/tma_probe_2gpu.json|--set|kernel.args.tx_shortfall=16" \
                "0|$src/scenarios/moe/moe_ep8_direct.json"; do
      IFS='|' read -r rc scenario extra <<< "$spec"
      IFS='|' read -r -a extra <<< "$extra"
      for mode in kept full; do
        mkdir -p $mode && cd $mode || fail "cd $mode"
        if [ $mode = full ]; then export SYMSIM_FULL_TEARDOWN=1; else unset SYMSIM_FULL_TEARDOWN; fi
        expect "$rc" "$symsim" run "$scenario" --out out "${extra[@]}"
        sed -E 's/wall [0-9.]+ s/wall - s/' out.txt > stdout.txt
        sed -E 's/"wall_s": [0-9.e+-]+/"wall_s": -/' out/result.json > result.txt
        cd ..
      done
      unset SYMSIM_FULL_TEARDOWN
      for f in stdout.txt err.txt result.txt; do cmp -s kept/$f full/$f || fail "$scenario: $f differs (kept / full teardown)"; done
      if [ ${#extra[@]} -gt 0 ] && [ "${extra[0]}" = --trace ]; then cmp -s kept/t.json full/t.json || fail "the trace differs"; fi
      rm -rf kept full
    done
    SYMSIM_COLD_PAGES_STATS=1 expect 0 "$symsim" run "$src/scenarios/udma/udma_put_signal_2pe.json" --out out
    has err.txt "symsim: cold pages: "
    SYMSIM_FULL_TEARDOWN=yes expect 2 "$symsim" run "$src/scenarios/udma/udma_put_signal_2pe.json" --out out
    has err.txt "SYMSIM_FULL_TEARDOWN: 'yes' is neither 0 nor 1" ;;
  *) echo "unknown case $case_name"; exit 1 ;;
esac
echo "ok [$case_name]"
