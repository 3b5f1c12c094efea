// LD_PRELOAD heap census for runs too large for massif (MoE EP 256 needs 286 GiB of address
// space): logs every heap block of at least HEAP_CENSUS_MIN bytes (default 16 KiB) as it is
// allocated, with its call stack, and as it is freed. bench/heap_census.py finds the moment the
// logged blocks' total peaked and sums them there by call site.
//
//   cc -O2 -shared -fPIC bench/heap_census.c -o /tmp/heap_census.so
//   HEAP_CENSUS_OUT=/tmp/ep256.census LD_PRELOAD=/tmp/heap_census.so build/bin/symsim-bench moe
//       bench/scenarios/moe/moe_ep256_direct.json       (one command line)
//   bench/heap_census.py /tmp/ep256.census build/bin/symsim-bench
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);
extern void __libc_free(void*);

static __thread int busy;  // backtrace() may allocate: its own blocks are not logged
static int fd = -1;
static size_t min_bytes;

static void log_block(char kind, void* p, size_t n) {
  if (busy) return;
  busy = 1;
  if (fd < 0) {
    const char* path = getenv("HEAP_CENSUS_OUT");
    fd = open(path ? path : "/tmp/heap_census.log", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  }
  char line[64];
  const int len = snprintf(line, sizeof line, "%c %p %zu\n", kind, p, n);
  (void)!write(fd, line, (size_t)len);
  if (kind == 'A') {
    void* stack[10];
    const int depth = backtrace(stack, 10);
    backtrace_symbols_fd(stack + 2, depth - 2, fd);  // past log_block and the wrapper
    (void)!write(fd, "--\n", 3);
  }
  busy = 0;
}

static size_t threshold(void) {
  if (min_bytes == 0) {
    const char* text = getenv("HEAP_CENSUS_MIN");
    min_bytes = text ? strtoull(text, NULL, 10) : 16384;
    if (min_bytes == 0) min_bytes = 1;
  }
  return min_bytes;
}

void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  if (p && n >= threshold()) log_block('A', p, n);
  return p;
}
void* calloc(size_t a, size_t b) {
  void* p = __libc_calloc(a, b);
  if (p && a * b >= threshold()) log_block('A', p, a * b);
  return p;
}
void free(void* p) {
  if (p && malloc_usable_size(p) >= threshold()) log_block('F', p, 0);
  __libc_free(p);
}
void* realloc(void* q, size_t n) {
  if (q && malloc_usable_size(q) >= threshold()) log_block('F', q, 0);
  void* p = __libc_realloc(q, n);
  if (p && n >= threshold()) log_block('A', p, n);
  return p;
}
void* memalign(size_t align, size_t n) {  // operator new for over-aligned types lands here
  void* p = __libc_memalign(align, n);
  if (p && n >= threshold()) log_block('A', p, n);
  return p;
}
void* aligned_alloc(size_t align, size_t n) { return memalign(align, n); }
int posix_memalign(void** out, size_t align, size_t n) {
  void* p = memalign(align, n);
  if (!p) return 12;  // ENOMEM
  *out = p;
  return 0;
}
