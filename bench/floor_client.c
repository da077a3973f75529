/* bench/floor_client.c: the least CPU a sequential HTTP/1.1 client can spend per request on this machine.
 *
 * The sync race's reference row. One keep-alive connection, one blocking send() and blocking recv()s per request
 * (reading to the end of the Content-Length body), no parsing beyond that: what is left is the kernel's share of
 * a loopback round trip (the send, the sleep in recv and the wake-up), which every sequential client pays. Its CPU
 * per request, measured in the same rounds as the clients', shows how much of theirs is their own.
 *
 * usage: floor_client PORT PATH REQUESTS SECONDS   (127.0.0.1 only)
 * prints one JSON object: {"wall": s, "cpu": s, "user": s, "completed": n, "marks": [n, ...]} (cpu = this
 * process's user + system time, user = its user time alone; marks = requests done at each half second, as
 * bench/http_case.py notes them, read every 64 requests)
 */
#define _GNU_SOURCE /* memmem */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double seconds_of(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec * 1e-6; }

/* This process's CPU time, user + system; its user part in *user. */
static double cpu_seconds(double *user) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  *user = seconds_of(r.ru_utime);
  return *user + seconds_of(r.ru_stime);
}

static int fail(const char *what) {
  printf("{\"error\": \"floor client: %s\"}\n", what);
  return 0; /* the bench reads the error from the JSON line */
}

/* Reads one response: the head, then Content-Length bytes of body. 0 on success. */
static int read_response(int fd, char *buf, size_t cap) {
  size_t have = 0;
  long body = -1;
  size_t head_end = 0;
  for (;;) {
    ssize_t n = recv(fd, buf + have, cap - have, 0);
    if (n <= 0) return -1;
    have += (size_t)n;
    if (body < 0) {
      char *end = memmem(buf, have, "\r\n\r\n", 4);
      if (end == NULL) {
        if (have == cap) return -1;
        continue;
      }
      head_end = (size_t)(end - buf) + 4;
      if (strncmp(buf, "HTTP/1.1 200", 12) != 0) return -1;
      const char *cl = memmem(buf, head_end, "\r\nContent-Length:", 17);
      if (cl == NULL) cl = memmem(buf, head_end, "\r\ncontent-length:", 17);
      if (cl == NULL) return -1;
      body = strtol(cl + 17, NULL, 10);
      if (head_end + (size_t)body > cap) return -1;
    }
    if (have >= head_end + (size_t)body) return have == head_end + (size_t)body ? 0 : -1;
  }
}

int main(int argc, char **argv) {
  if (argc != 5) return fail("usage: PORT PATH REQUESTS SECONDS");
  int port = atoi(argv[1]);
  long requests = atol(argv[3]);
  double seconds = atof(argv[4]);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons((unsigned short)port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) return fail("connect failed");
  char request[512];
  int len = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", argv[2], port);
  if (len <= 0 || (size_t)len >= sizeof request) return fail("path too long");
  static char buf[1 << 16];
  for (int i = 0; i < 200; ++i) /* warm-up */
    if (send(fd, request, (size_t)len, 0) != len || read_response(fd, buf, sizeof buf) != 0) return fail("bad response");
  double user0, user1;
  double cpu0 = cpu_seconds(&user0), t0 = now(), deadline = t0 + seconds, next_mark = t0 + 0.5;
  static long marks[1024];
  int n_marks = 0;
  long done = 0;
  while (done < requests) {
    if (send(fd, request, (size_t)len, 0) != len || read_response(fd, buf, sizeof buf) != 0) return fail("bad response");
    ++done;
    if ((done & 63) == 0) {
      double t = now();
      if (t >= next_mark && n_marks < 1024) {
        marks[n_marks++] = done;
        next_mark += 0.5;
      }
      if (t > deadline) break;
    }
  }
  double wall = now() - t0, cpu = cpu_seconds(&user1) - cpu0;
  printf("{\"wall\": %.6f, \"cpu\": %.6f, \"user\": %.6f, \"completed\": %ld, \"marks\": [", wall, cpu,
         user1 - user0, done);
  for (int i = 0; i < n_marks; ++i) printf(i ? ", %ld" : "%ld", marks[i]);
  printf("]}\n");
  close(fd);
  return 0;
}
