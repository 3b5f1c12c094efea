#!/bin/bash
# Session 31 call D3: s31-pull's and s31-read's requests again, only on an H200 (their answers on an H100 are in D2).
FINAL=$OUT; W=/tmp/d3out; rm -rf $W; mkdir -p $W
nvidia-smi --query-gpu=name --format=csv,noheader | tee $W/card.txt
grep -q H200 $W/card.txt || { echo "not an H200: nothing run"; exit 0; }
for n in pull read; do
  mkdir -p $W/$n; OUT=$W/$n CARRY=build-dev-s31-$n bash build-dev-s31-$n/run.sh; echo "$n rc $? $(date -u +%T)" >>$W/batch.txt
done
cd /tmp && tar czf $FINAL/d3.tgz d3out; cat $W/*/v.txt $W/batch.txt
