#!/bin/bash
# s21-dev2's one device call: run from the checkout's root as `bash build-dev-s21d/run.sh`.
D=build-dev-s21d;K=kernels/nvlink/calib
export LD_LIBRARY_PATH=$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv;nvcc --version|tail -2;date -u; } >$OUT/v.txt
nvcc -I. -Ikernels/shim/cuda/device -gencode=arch=compute_90a,code=sm_90a -O3 $D/harness.cu $K/dispatch_route_probe.cu $K/shim_probe.cu -o /tmp/p || echo "harness build failed"
R=;for c in "1 1" "1 4" "4 1" "4 4";do R+="29 7168 $c 65536
29 7168 $c 4259840
12 7168 $c 0
11 7168 $c 0
";done;R+="12 7184 1 1 0
12 7184 4 1 0"
echo "harness start $(date -u +%T)" >>$OUT/v.txt
for f in 0 1;do echo "$R"|while read a;do timeout 20 /tmp/p $a $f;done;done >$OUT/harness.txt 2>&1
for h in wait none;do echo "hw $h start $(date -u +%T)" >>$OUT/v.txt
 SYMSIM_HW_KEEP_REPETITIONS=1 timeout 110 python3 $D/hw_diff.py hw --set $D/s21d_set.json --kind micro --runner $D/symsim-hw --repeat 11 --hold $h --out /tmp/hw_$h >$OUT/hw_$h.txt 2>&1
 cp /tmp/hw_$h/log.txt $OUT/hw_${h}_log.txt;done
echo "end $(date -u +%T)" >>$OUT/v.txt
cd /tmp && tar czf $OUT/hw.tgz hw_wait hw_none
