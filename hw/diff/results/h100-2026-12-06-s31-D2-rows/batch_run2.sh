#!/bin/bash
# Session 31 call D2: the helpers' requests (s31-pull, s31-rows, s31-store, s31-read), each into its own folder, one tgz back.
FINAL=$OUT; W=/tmp/d2out; rm -rf $W; mkdir -p $W
for n in pull rows store read; do
  mkdir -p $W/$n; OUT=$W/$n CARRY=build-dev-s31-$n bash build-dev-s31-$n/run.sh; echo "$n rc $? $(date -u +%T)" >>$W/batch.txt
done
cd /tmp && tar czf $FINAL/d2.tgz d2out; cat $W/*/v.txt $W/batch.txt
