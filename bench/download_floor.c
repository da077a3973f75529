/* bench/download_floor.c: the least a client does to download a body into a file, or into memory, on this machine.
 *
 * The download tables' reference rows (bench/bench_download.py). One GET on a fresh connection, no parsing beyond
 * the status line and Content-Length, no error recovery; what is left is the kernel's work (nginx's sendfile,
 * loopback, fresh pages) on this machine's CPUs, which every client pays. The clients' rows beside it show how
 * much of their time is their own.
 *   - into a file: the body goes from the socket into pipes with splice (no copy through user space) and a second
 *     thread moves each pipe into the file with splice, so that receiving and writing overlap; then fsync and
 *     rename, as every file contestant does;
 *   - into memory: recv straight into one fresh block of the body's size while a second thread faults its pages in
 *     ahead (MADV_POPULATE_WRITE), so that the page faults and the copy overlap.
 *
 * usage: download_floor PORT PATH DEST   (127.0.0.1 only; writes DEST.part, then renames it to DEST)
 *        download_floor PORT PATH -      (into memory)
 * prints one JSON object: {"seconds": s, "bytes": n, "cpu": s} (cpu: this process's user + system time; into memory
 * also "sha256": the body's digest, taken after the clock stops), or exits non-zero with a message on stderr.
 * build: cc -O2 -pthread download_floor.c -lcrypto
 */
#define _GNU_SOURCE /* splice, F_SETPIPE_SZ, strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/sha.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { PIPES = 4, PIPE_SIZE = 1 << 20, POPULATE_STEP = 1 << 20 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

/* The pipes and who holds them: `filled[i]` bytes wait in pipe i for the writer (0: free for the receiver);
 * pieces are written in the order they were filled (`order`, a ring of pipe indices). */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int read_end[PIPES], write_end[PIPES];
  size_t capacity[PIPES], filled[PIPES];
  int order[PIPES], head, count;
  int done; /* the receiver has no more pieces */
  int file;
} q = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static void *writer(void *unused) {
  (void)unused;
  for (;;) {
    pthread_mutex_lock(&q.lock);
    while (q.count == 0 && !q.done) pthread_cond_wait(&q.changed, &q.lock);
    if (q.count == 0) {
      pthread_mutex_unlock(&q.lock);
      return NULL;
    }
    int p = q.order[q.head];
    size_t n = q.filled[p];
    pthread_mutex_unlock(&q.lock);
    while (n > 0) {
      ssize_t m = splice(q.read_end[p], NULL, q.file, NULL, n, SPLICE_F_MOVE);
      if (m <= 0) die("splice into the file");
      n -= (size_t)m;
    }
    pthread_mutex_lock(&q.lock);
    q.filled[p] = 0;
    q.head = (q.head + 1) % PIPES;
    q.count--;
    pthread_cond_broadcast(&q.changed);
    pthread_mutex_unlock(&q.lock);
  }
}

/* The body into `dest` (through dest.part): `early` bytes at `first` came with the head. */
static void into_file(int sock, const char *first, size_t early, size_t body, const char *dest) {
  char part[4096];
  snprintf(part, sizeof part, "%s.part", dest);
  q.file = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (q.file < 0) die("open");
  if (early > 0 && write(q.file, first, early) != (ssize_t)early) die("write");
  for (int i = 0; i < PIPES; i++) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) die("pipe2");
    q.read_end[i] = ends[0];
    q.write_end[i] = ends[1];
    int size = fcntl(ends[1], F_SETPIPE_SZ, PIPE_SIZE);
    q.capacity[i] = size > 0 ? (size_t)size : 65536;
  }
  pthread_t thread;
  if (pthread_create(&thread, NULL, writer, NULL) != 0) die("pthread_create");

  /* Receive: fill the next free pipe (the one after the last piece in the ring) and hand it over. */
  size_t left = body - early;
  int next = 0;
  while (left > 0) {
    pthread_mutex_lock(&q.lock);
    while (q.count == PIPES) pthread_cond_wait(&q.changed, &q.lock);
    pthread_mutex_unlock(&q.lock);
    /* Non-blocking: a pipe holds at most one socket fragment a slot, so it can be full short of its capacity.
     * A piece ends when the pipe is full, the body is in, or nothing more has arrived yet. */
    size_t room = q.capacity[next] < left ? q.capacity[next] : left, in = 0;
    while (in < room) {
      ssize_t m = splice(sock, NULL, q.write_end[next], NULL, room - in, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (m > 0) {
        in += (size_t)m;
      } else if (m < 0 && errno == EAGAIN && in > 0) {
        break;
      } else if (m < 0 && errno == EAGAIN) {
        struct pollfd readable = {.fd = sock, .events = POLLIN};
        poll(&readable, 1, -1);
      } else {
        die("splice from the socket");
      }
    }
    left -= in;
    pthread_mutex_lock(&q.lock);
    q.filled[next] = in;
    q.order[(q.head + q.count) % PIPES] = next;
    q.count++;
    pthread_cond_broadcast(&q.changed);
    pthread_mutex_unlock(&q.lock);
    next = (next + 1) % PIPES;
  }
  pthread_mutex_lock(&q.lock);
  q.done = 1;
  pthread_cond_broadcast(&q.changed);
  pthread_mutex_unlock(&q.lock);
  pthread_join(thread, NULL);
  if (fsync(q.file) != 0 || close(q.file) != 0) die("fsync");
  if (rename(part, dest) != 0) die("rename");
}

/* Faults the block's pages in ahead of the receiver, one step a call, until it is told to stop. */
static struct {
  char *block;
  size_t size;
  atomic_int stop;
} populate;

static void *populater(void *unused) {
  (void)unused;
  for (size_t at = 0; at < populate.size && !populate.stop; at += POPULATE_STEP) {
    size_t n = populate.size - at < POPULATE_STEP ? populate.size - at : POPULATE_STEP;
    if (madvise(populate.block + at, n, MADV_POPULATE_WRITE) != 0) break;
  }
  return NULL;
}

/* The body into one fresh block (kept until exit, as a client hands it over); returns the block. */
static char *into_memory(int sock, const char *first, size_t early, size_t body) {
  char *block = mmap(NULL, body, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) die("mmap");
  memcpy(block, first, early);
  populate.block = block;
  populate.size = body;
  pthread_t thread;
  if (pthread_create(&thread, NULL, populater, NULL) != 0) die("pthread_create");
  for (size_t got = early; got < body;) {
    ssize_t m = recv(sock, block + got, body - got, 0);
    if (m <= 0) die("recv the body");
    got += (size_t)m;
  }
  populate.stop = 1;
  pthread_join(thread, NULL);
  return block;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PORT PATH DEST|-\n", argv[0]);
    return 2;
  }
  double start = now();
  int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[1]))};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");
  char request[1024];
  int len = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                     argv[2]);
  if (send(sock, request, (size_t)len, 0) != len) die("send");

  /* The head, and whatever part of the body came with it. */
  char head[16384];
  size_t got = 0;
  char *end = NULL;
  while (end == NULL) {
    if (got == sizeof head - 1) {
      fprintf(stderr, "response head too long\n");
      return 1;
    }
    ssize_t m = recv(sock, head + got, sizeof head - 1 - got, 0);
    if (m <= 0) die("recv the head");
    got += (size_t)m;
    head[got] = 0;
    end = strstr(head, "\r\n\r\n");
  }
  char *length_field = strcasestr(head, "\r\ncontent-length:");
  if (strncmp(head, "HTTP/1.1 200", 12) != 0 || length_field == NULL || length_field > end) {
    fprintf(stderr, "not a 200 with a Content-Length\n");
    return 1;
  }
  size_t body = strtoull(length_field + 17, NULL, 10);
  size_t early = got - (size_t)(end + 4 - head);
  if (early > body) {
    fprintf(stderr, "more bytes than the Content-Length\n");
    return 1;
  }

  char *block = NULL;
  if (strcmp(argv[3], "-") == 0) {
    block = into_memory(sock, end + 4, early, body);
  } else {
    into_file(sock, end + 4, early, body, argv[3]);
  }
  close(sock);
  double seconds = now() - start;

  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
               (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
  printf("{\"seconds\": %.6f, \"bytes\": %zu, \"cpu\": %.6f", seconds, body, cpu);
  if (block != NULL) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)block, body, digest);
    printf(", \"sha256\": \"");
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) printf("%02x", digest[i]);
    printf("\"");
  }
  printf("}\n");
  return 0;
}
