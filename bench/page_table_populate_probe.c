// Does MADV_POPULATE_READ on a range watched by userfaultfd (missing mode, SIGBUS, as the
// cold-page store registers the rings) make the page table and nothing else? N spans: VmPTE
// before/after, pages mapped (mincore), SIGBUS raised; then one write per span through the handler.
//   cc -O2 bench/page_table_populate_probe.c -o /tmp/ptp && /tmp/ptp N [skip]   (skip: no populate)
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
static long vmpte(void){FILE*f=fopen("/proc/self/status","r");char l[256];long v=-1;while(fgets(l,sizeof l,f))if(!strncmp(l,"VmPTE:",6))v=atol(l+6);fclose(f);return v;}
static double sys_s(void){struct rusage r;getrusage(RUSAGE_SELF,&r);return r.ru_stime.tv_sec+r.ru_stime.tv_usec*1e-6;}
static int uffd; static long sigbus;
static void on_bus(int s, siginfo_t*i, void*c){ static char pg[4096] __attribute__((aligned(4096))); struct uffdio_copy cp={.dst=(unsigned long)i->si_addr&~4095UL,.src=(unsigned long)pg,.len=4096}; ioctl(uffd,UFFDIO_COPY,&cp); sigbus++; }
int main(int argc,char**argv){
  long n=argc>1?atol(argv[1]):20000;
  size_t len=(size_t)n<<21;
  char*p=mmap(0,len,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE,-1,0);
  uffd=syscall(SYS_userfaultfd,O_CLOEXEC|O_NONBLOCK|UFFD_USER_MODE_ONLY);
  struct uffdio_api api={.api=UFFD_API,.features=UFFD_FEATURE_SIGBUS}; if(ioctl(uffd,UFFDIO_API,&api)){perror("api");return 1;}
  struct uffdio_register reg={.range={(unsigned long)p,len},.mode=UFFDIO_REGISTER_MODE_MISSING}; if(ioctl(uffd,UFFDIO_REGISTER,&reg)){perror("reg");return 1;}
  struct sigaction sa={0}; sa.sa_sigaction=on_bus; sa.sa_flags=SA_SIGINFO; sigaction(SIGBUS,&sa,0);
  long pte0=vmpte(); double t0=sys_s(); int errs=0, lasterr=0;
  if(argc<3) for(long i=0;i<n;i++) if(madvise(p+((size_t)i<<21),4096,MADV_POPULATE_READ)){errs++;lasterr=errno;}
  double t1=sys_s(); long pte1=vmpte();
  unsigned char v; long mapped=0; for(long i=0;i<n;i++){mincore(p+((size_t)i<<21),4096,&v); mapped+=v&1;}
  printf("populate: %ld calls, %d failed (errno %d: %s), VmPTE %ld -> %ld kB, mapped pages %ld, SIGBUS %ld, %.2f us/span\n",n,errs,lasterr,strerror(lasterr),pte0,pte1,mapped,sigbus,(t1-t0)*1e6/n);
  double t2=sys_s(); for(long i=0;i<n;i++) p[((size_t)i<<21)+8]=1; double t3=sys_s();
  printf("then touched: SIGBUS %ld, VmPTE %ld kB, %.2f us/span\n",sigbus,vmpte(),(t3-t2)*1e6/n);
}
