// s21-dev2: s21-dev's steady-state harness (hw/diff/results/h200-2026-12-04-s21-dev/device_command.sh) with argv[6]:
// 0 = one window for all 11 launches (s21-dev's), 1 = a new window, word and stamps per launch, never freed
// (as calib_probe_host does per symsim-hw repetition). Prints every launch's reading in launch order, then the median.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include <bits/stdc++.h>
int main(int,char**v){int m=atoi(v[1]),B=atoi(v[2]),C=atoi(v[3]),W=atoi(v[4]),fresh=atoi(v[6]);
CalibProbeArgs a{};a.mode=m;a.bytes=B;a.inflight=1;a.per_thread=64;a.stride=atoi(v[5]);a.bufs=1;a.ranks=1;a.topk=8;a.experts=64;
size_t n=16<<20,wb=m==29?kPullProbeWordBytes:4;std::vector<char> z(n,0);a.window_bytes=n;
int sm=kCalibProbeMbarBytes+W*2*(m==29?B+16:B);std::vector<double> r;
for(int i=0;i<11;i++){if(i==0||fresh){cudaMalloc(&a.buf,n);cudaMalloc(&a.word,wb);cudaMalloc(&a.cycles,8*(2*C+1));}
cudaMemcpy(a.buf,z.data(),n,cudaMemcpyHostToDevice);cudaMemset(a.word,0,wb);
int e=m==29?launch_dispatch_route_probe(C,32*W,sm,a):launch_shim_probe(C,32*W,sm,a);
if(e||cudaDeviceSynchronize()){printf("err %d\n",e);return 1;}
std::vector<unsigned long long> y(C);cudaMemcpy(y.data(),a.cycles,8*C,cudaMemcpyDeviceToHost);
r.push_back(*std::max_element(y.begin(),y.end())/1.98/64);}
printf("%s %s %s %s %s alloc %d each",v[1],v[2],v[3],v[4],v[5],fresh);for(double x:r)printf(" %.1f",x);
std::sort(r.begin(),r.end());printf(" med %.1f\n",r[5]);}
