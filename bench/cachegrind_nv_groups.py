#!/usr/bin/env python3
"""D1 and LL misses per CUDA-thread resumption from cachegrind output, grouped by what the
functions touch (NVIDIA LL dispatch; docs/performance.md, session 23):
    bench/cachegrind_nv_groups.py RESUMPTIONS FILE.cg...
RESUMPTIONS: the figure symsim-bench nvidia prints ("thread resumptions/s (N)")."""
import collections, re, sys
GROUPS = [
  ('fiber switch (resumed stack: saved registers, return frames)', r'jump_fcontext|Fiber::yield|Fiber::resume'),
  ('kernel body (its frame and argument copy on the fiber stack)', r'll_dispatch\(LLDispatchArgs\)'),
  ('scheduler (CudaThread lines, ready queue)', r'GpuScheduler::|ReadyQueue'),
  ('device calls (their frames; CudaThread, warp and CTA state)', r'warp_op|cta_barrier|symsim::nv::load\(|symsim::nv::store\(|symsim::nv::atomic\(|tma_|charge_code_blocks|this_system|owner_of|prune_landed|mbarrier|use_loads|issue_ps|release_stall|symsim::nv::\(anonymous namespace\)'),
  ('order model (ThreadOrder, word table)', r'merge_watches|OrderModel|WriteSet|merge_posted'),
  ('payload copies and memory model (HBM, visibility queue, L2 sets)', r'memcpy|memmove|memset|VisibilityQueue|LruLineSet|L2Residency|SparseRegion'),
]
events = float(sys.argv[1])
for path in sys.argv[2:]:
    names=None; fn=None; tot=collections.defaultdict(lambda:[0,0,0]); allv=[0,0,0]
    for raw in open(path, errors='replace'):
        if raw.startswith('events:'): names=raw.split()[1:]; ix={n:i for i,n in enumerate(names)}; continue
        if raw.startswith('fn='): fn=raw[3:].strip(); g=next((n for n,r in GROUPS if re.search(r,fn)),'other'); continue
        if not raw[:1].isdigit(): continue
        p=[int(x) for x in raw.split()[1:]]; p+= [0]*(9-len(p))
        v=[p[ix['Ir']], p[ix['D1mr']]+p[ix['D1mw']], p[ix['DLmr']]+p[ix['DLmw']]]
        for i in range(3): tot[g][i]+=v[i]; allv[i]+=v[i]
    print(f"== {path}: Ir {allv[0]/events:.1f} D1 {allv[1]/events:.2f} LL {allv[2]/events:.3f}")
    for n,_ in GROUPS+[('other','')]:
        v=tot[n]; print(f"  {v[1]/events:6.2f} D1 {v[2]/events:6.3f} LL  {n}")
