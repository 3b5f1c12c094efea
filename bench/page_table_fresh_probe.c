// Page tables fresh against recycled on this VM (docs/performance.md, Session 27): touch one page
// in each of N 2 MiB spans (mode 0: a table and a data page each; mode 1: MADV_POPULATE_READ, a
// table and the zero page), unmap, and again (after SLEEP s); system time per span, each round.
//   cc -O2 bench/page_table_fresh_probe.c -o /tmp/ptf && /tmp/ptf N ROUNDS MODE [SLEEP]
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
static double sys_s(void){struct rusage r;getrusage(RUSAGE_SELF,&r);return r.ru_stime.tv_sec+r.ru_stime.tv_usec*1e-6;}
int main(int argc,char**argv){
  long n=argc>1?atol(argv[1]):20000; int rounds=argc>2?atoi(argv[2]):3; int mode=argc>3?atoi(argv[3]):0;
  for(int r=0;r<rounds;r++){
    size_t len=(size_t)n<<21;
    char*p=mmap(0,len,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE,-1,0);
    double t0=sys_s();
    if(mode==0) for(long i=0;i<n;i++) p[(size_t)i<<21]=1;          // a page table + a data page per span
    else for(long i=0;i<n;i++) madvise(p+((size_t)i<<21),4096,MADV_POPULATE_READ); // a page table + the zero page
    double t1=sys_s();
    munmap(p,len); if(argc>4) sleep(atoi(argv[4]));
    double t2=sys_s();
    printf("round %d: %.2f us/span touch, %.2f us/span unmap\n",r,(t1-t0)*1e6/n,(t2-t1)*1e6/n);
  }
}
