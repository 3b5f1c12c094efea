#!/usr/bin/env bash
# One hostile-input case of `symsim run`/`validate` (docs/robustness.md, "CLI"):
#   cli_case.sh CASE SYMSIM SOURCE_DIR WORK_DIR
# Each case runs one command and checks its exit code, that stderr names the option, file or
# JSON pointer, and that nothing partial or misplaced was written. Exit 77: cannot run here.
set -u
case_name=$1 symsim=$2 src=$3 work=$4/$1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
S=$src/scenarios/udma/udma_put_signal_2pe.json

fail() { echo "FAIL [$case_name]: $*"; echo "--- stderr:"; cat err.txt 2>/dev/null; exit 1; }
# expect RC TEXT... : runs the command saved in $cmd, checks the exit code and stderr.
expect() {
  local want=$1; shift
  echo "+ $cmd"
  eval "$cmd" > out.txt 2> err.txt
  local rc=$?
  [ "$rc" = "$want" ] || fail "exit code $rc, expected $want"
  for text in "$@"; do grep -qF -- "$text" err.txt || fail "stderr does not name '$text'"; done
}
no_file() { [ ! -e "$1" ] || fail "$1 was written"; }
no_temp() { ! ls -A "$1" 2>/dev/null | grep -q '\.tmp-' || fail "a temporary file was left in $1"; }
scenario() { printf '%s\n' "$1" > "$2"; }

case $case_name in
  # --- item 1: outputs are checked; exit 2 (bad path) or 3 (I/O error), path named, no partial file
  trace_missing_folder)
    cmd="$symsim run $S --out out --trace /nonexistent-symsim/t.json"
    expect 2 /nonexistent-symsim/t.json; no_file out/result.json ;;
  out_is_a_file)
    touch afile; cmd="$symsim run $S --out afile"; expect 2 afile ;;
  out_under_a_file)
    touch afile; cmd="$symsim run $S --out afile/sub"; expect 2 afile/sub ;;
  out_in_proc)
    cmd="$symsim run $S --out /proc/symsim-out"; expect 2 /proc/symsim-out ;;
  out_read_only)
    # A read-only file system (root ignores folder permissions): needs mount rights.
    mkdir ro && mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null || { echo "cannot mount tmpfs here"; exit 77; }
    trap 'umount "$work/ro" 2>/dev/null' EXIT
    cmd="$symsim run $S --out ro/x"; expect 2 ro/x ;;
  trace_full_device)
    cmd="$symsim run $S --out out --trace /dev/full"; expect 3 /dev/full "No space left" ;;
  result_full_disk)
    mkdir small && mount -t tmpfs -o size=12k tmpfs small 2>/dev/null || { echo "cannot mount tmpfs here"; exit 77; }
    trap 'umount "$work/small" 2>/dev/null' EXIT
    cmd="$symsim run $S --out small --trace small/t.json"; expect 3 small/t.json "No space left"
    no_file small/t.json; no_temp small ;;
  trace_file_size_limit)
    # ulimit -f: the write fails with EFBIG part-way (the process is not killed); no partial trace.
    cmd="(ulimit -f 8; $symsim run $S --out out --trace t.json)"; expect 3 t.json; no_file t.json; no_temp . ;;
  result_file_size_limit)
    cmd="(ulimit -f 8; $symsim run $S --out out)"; expect 3 out/result.json; no_file out/result.json; no_temp out ;;
  # --- item 2: the scenario name never leaves the output folder
  name_escapes)
    scenario '{"symsim":1,"name":"../../escaped","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put_signal"}}' s.json
    cmd="$symsim run s.json"; expect 0
    [ -f symsim-out/_.._escaped/result.json ] || fail "result not under symsim-out/_.._escaped"
    no_file ../escaped; no_file escaped ;;
  name_absolute)
    scenario "{\"symsim\":1,\"name\":\"$work/abs\",\"platform\":\"ascend910c\",\"pes\":2,\"kernel\":{\"name\":\"udma_put_signal\"}}" s.json
    cmd="$symsim run s.json"; expect 0; no_file abs
    [ "$(ls symsim-out | wc -l)" = 1 ] || fail "expected one folder under symsim-out" ;;
  name_too_long)
    scenario "{\"symsim\":1,\"name\":\"$(head -c 5000 /dev/zero | tr '\0' n)\",\"platform\":\"ascend910c\",\"pes\":2,\"kernel\":{\"name\":\"udma_put_signal\"}}" s.json
    cmd="$symsim validate s.json"; expect 2 s.json /name ;;
  name_control_chars)
    scenario '{"symsim":1,"name":"a\nb","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put_signal"}}' s.json
    cmd="$symsim run s.json"; expect 2 s.json /name; no_file symsim-out ;;
  # --- item 5: invalid input is exit 2 naming the option or pointer, never 3
  set_seed_1e400)
    cmd="$symsim run $S --out out --set seed=1e400"; expect 2 "--set" "seed=1e400"; no_file out ;;
  set_arg_1e400)
    cmd="$symsim validate $S --set kernel.args.bytes=1e400"; expect 2 "--set" ;;
  overrides_not_object)
    scenario '{"symsim":1,"name":"x","platform":"ascend910c","overrides":5,"pes":2,"kernel":{"name":"udma_put_signal"}}' s.json
    cmd="$symsim validate s.json --set platform.udma.cq_depth=64"; expect 2 s.json /overrides ;;
  trace_pes_overflow)
    cmd="$symsim run $S --out out --trace t.json --trace-pes 99999999999"; expect 2 --trace-pes; no_file out ;;
  trace_pes_huge_range)
    cmd="timeout 20 $symsim run $S --out out --trace t.json --trace-pes 0-2147483647"; expect 2 --trace-pes ;;
  trace_pes_beyond_scenario)
    cmd="$symsim run $S --out out --trace t.json --trace-pes 0,7"; expect 2 --trace-pes "PE 7" ;;
  trace_pes_reversed)
    cmd="$symsim run $S --out out --trace t.json --trace-pes 3-1"; expect 2 --trace-pes ;;
  trace_filter_without_trace)
    cmd="$symsim run $S --out out --trace-pes 0"; expect 2 --trace-pes "--trace FILE"; no_file out ;;
  nvidia_pes_address_space)
    cmd="$symsim validate $src/scenarios/nvidia/$(ls $src/scenarios/nvidia | grep -m1 json) --set pes=2000"
    expect 2 /pes "address space" ;;
  trace_window_words)
    cmd="$symsim run $S --out out --trace t.json --trace-window a:b"; expect 2 --trace-window ;;
  pes_address_space)
    # 2047 PEs x 64 GiB of HBM: validate and run agree that it cannot be mapped here.
    cmd="$symsim validate $S --set pes=2047"; expect 2 "/pes" "address space"
    cmd="$symsim run $S --out out --set pes=2047"; expect 2 "/pes" "address space"; no_file out ;;
  hbm_bytes_1e15)
    cmd="$symsim validate $S --set platform.hbm.bytes=1e15"; expect 2 "/overrides/hbm.bytes" "address space" ;;
  # --- item 6: too big for the machine, or too long
  max_memory)
    cmd="$symsim run $src/scenarios/udma/udma_allgather_32pe_2nodes.json --out out --set pes=64 --set kernel.args.bytes=67108864 --max-memory 8G"
    expect 2 --max-memory "symmetric heap written: 64 PEs x 4.0 GiB"; no_file out ;;
  max_memory_default)
    # 64 PEs x 64 MiB all-gather needs 256 GiB: refused against MemAvailable unless the machine has it.
    avail=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
    [ "$avail" -lt 200000000 ] || { echo "this machine has 200+ GiB available"; exit 77; }
    cmd="$symsim run $src/scenarios/udma/udma_allgather_32pe_2nodes.json --out out --set pes=64 --set kernel.args.bytes=67108864"
    expect 2 --max-memory "available"; no_file out ;;
  max_memory_bad)
    cmd="$symsim run $S --out out --max-memory lots"; expect 2 --max-memory ;;
  max_wall_s)
    # 10^8 puts take far longer than the limit on any machine: the limit, not speed, decides.
    cmd="$symsim run $src/scenarios/udma/udma_put_2pe.json --set kernel.args.rounds=100000000 --out out --trace t.json --max-wall-s 1"
    expect 124 "--max-wall-s"; no_file out/result.json; no_file t.json; no_temp . ;;
  # --- item 10: small ones
  duplicate_key)
    scenario '{"symsim":1,"name":"x","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put_signal","args":{"bytes":64,"bytes":128}}}' s.json
    cmd="$symsim validate s.json"; expect 2 s.json /kernel/args/bytes "duplicate key" ;;
  min_above_max_time)
    scenario '{"symsim":1,"name":"x","platform":"ascend910c","pes":2,"kernel":{"name":"udma_put_signal"},"expect":{"min_sim_time_us":10,"max_sim_time_us":5}}' s.json
    cmd="$symsim validate s.json"; expect 2 s.json /expect/min_sim_time_us ;;
  trace_window_negative)
    cmd="$symsim run $S --out out --trace t.json --trace-window -1:5"; expect 2 --trace-window ;;
  trace_window_reversed)
    cmd="$symsim run $S --out out --trace t.json --trace-window 10:5"; expect 2 --trace-window ;;
  trace_window_huge)
    cmd="$symsim run $S --out out --trace t.json --trace-window 1e300:1e301"; expect 2 --trace-window ;;
  seed_negative)
    cmd="$symsim run $S --out out --seed -1"; expect 2 --seed; no_file out ;;
  heap_cannot_fit)
    cmd="$symsim validate $S --set kernel.args.bytes=67108864 --set kernel.args.rounds=1000000"
    expect 2 /kernel/args "symmetric heap" ;;
  scenario_fifo)
    mkfifo f.json; cmd="timeout 20 $symsim validate f.json"; expect 2 f.json "not a regular file" ;;
  scenario_dev_zero)
    cmd="timeout 20 $symsim validate /dev/zero"; expect 2 /dev/zero "not a regular file" ;;
  scenario_too_big)
    head -c 17000000 /dev/zero | tr '\0' ' ' > big.json
    cmd="$symsim validate big.json"; expect 2 big.json limit ;;
  # --- environment variables of the cold-page store (docs/cli.md): a bad value stops the run
  env_cold_pages_bad)
    cmd="SYMSIM_COLD_PAGES=12x $symsim run $S --out out"; expect 2 SYMSIM_COLD_PAGES 12x; no_file out/result.json ;;
  env_cold_pages_stats_bad)
    cmd="SYMSIM_COLD_PAGES_STATS=yes $symsim run $S --out out"; expect 2 SYMSIM_COLD_PAGES_STATS yes
    no_file out/result.json ;;
  env_cold_pages_stats_on)
    cmd="SYMSIM_COLD_PAGES_STATS=1 $symsim run $S --out out"; expect 0 "cold pages:" ;;
  *) echo "unknown case $case_name"; exit 1 ;;
esac
echo "held: $case_name"
