/* What PAGEMAP_SCAN reports as written on this kernel, with the categories
 * Wasmtime 50 asks for (WRITTEN, and not PFNZERO or FILE): build with
 * `gcc -O2 pagemap-scan.c -o pagemap-scan`; set NOHUGE=1 to rule out
 * transparent huge pages. Output on 6.18 in pagemap-scan.txt. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <stdlib.h>
struct page_region { uint64_t start, end, categories; };
struct pm_scan_arg { uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted, category_mask, category_anyof_mask, return_mask; };
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define WRITTEN (1<<1)
#define FILEP (1<<2)
#define PRESENT (1<<3)
#define PFNZERO (1<<5)
void scan(int fd, char *p, size_t len, const char *what) {
  struct page_region r[64];
  struct pm_scan_arg a = {0};
  a.size = sizeof a; a.start = (uint64_t)p; a.end = (uint64_t)p + len; a.vec = (uint64_t)r; a.vec_len = 64;
  a.max_pages = len / 4096; a.category_inverted = PFNZERO|FILEP; a.category_mask = WRITTEN|PFNZERO|FILEP; a.return_mask = 0;
  long n = ioctl(fd, PAGEMAP_SCAN, &a);
  printf("%s: n=%ld\n", what, n);
  for (int i = 0; i < n; i++) printf("  +%lu..+%lu (%lu pages)\n", (r[i].start - (uint64_t)p)/4096, (r[i].end-(uint64_t)p)/4096, (r[i].end-r[i].start)/4096);
}
int main() {
  int fd = open("/proc/self/pagemap", O_RDONLY);
  size_t len = 4 << 20;
  char *p = mmap(0, len, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  madvise(p, len, getenv("NOHUGE") ? MADV_NOHUGEPAGE : MADV_NORMAL); scan(fd, p, len, "anon untouched");
  p[0] = 1; p[100*4096] = 1; volatile char c = p[200*4096]; (void)c;
  scan(fd, p, len, "anon wrote 0,100 read 200");
  madvise(p, len, MADV_DONTNEED);
  scan(fd, p, len, "anon after dontneed");
  // CoW image: memfd mapped private over part
  int m = memfd_create("img", 0); ftruncate(m, 64*4096); char buf[4096]; memset(buf, 7, 4096); for (int i=0;i<64;i++) write(m, buf, 4096);
  char *q = mmap(p + 256*4096, 64*4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_FIXED, m, 0);
  c = q[0]; q[4096] = 3; p[1] = 1;
  scan(fd, p, len, "with image: read img0, write img1, write anon0");
  return 0;
}
