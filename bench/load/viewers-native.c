// Websocket viewers in C: the fan-out benchmark's measuring instrument when BENCH_VIEWERS_CLIENT
// is `native` (the default). One thread and one epoll set hold every viewer, so receiving a
// snapshot costs each viewer little more than the kernel's recv: the figures then describe the
// server, not a JavaScript client's per-message overhead. bench/load/viewers.ts drives it and does
// the analysis exactly as for its own ws clients.
//
// Usage: viewers-native <host> <port> <path> <origin> <viewers> <batch> <tribuna|raw|socketio> <pollId> [soak]
// `soak` (the long-episode benchmark's viewers, driven by bench/load/soak-side.ts): messages are
// only counted, never stored (15 minutes of snapshots would grow without bound), a dropped viewer
// reconnects 1-3 s later as a browser tab would, and each viewer comes from 172.16/12 instead of
// 10/8 (the soak's signed-in users vote from 10/8).
// Commands on stdin, one per line; one JSON line answers each on stdout:
//   connect       open every viewer (batch at a time) and subscribe  → {"type":"connected",...}
//   reset         forget what was received                          → {"type":"reset-done"}
//   status        messages so far and when the last one arrived      → {"type":"status",...}
//   dump <file>   write what was received (format below)             → {"type":"dumped",...}
//   close         close every socket and exit                        → {"type":"closed"}
//
// Dump (little endian): u32 payloadCount, then per distinct text message u32 length + bytes;
// u32 viewerCount, then per viewer u8 open, u8 subscribed, u8 closedEarly, u32 count and count
// records of (u32 payloadIndex, f64 receivedAtMs). Identical messages (every viewer gets the same
// bytes for one snapshot) are stored once, found by hash.
//
// Protocols: tribuna sends {"type":"subscribe","topic":"poll:…"} (or, when the pollId argument holds a ':', that topic as is,
// e.g. post:<uuid>: a viewer is then subscribed at its first message naming the topic, refused at an error),
// raw {"type":"subscribe","pollId":…} once open; socketio speaks
// engine.io v4 / socket.io framing ("0" open → "40", "40" → 42["subscribe",pollId], "2" → "3").
// Server pings get pongs; client frames are masked as RFC 6455 requires.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { ST_IDLE, ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_CLOSED };
enum { P_TRIBUNA, P_RAW, P_SOCKETIO };

typedef struct {
  uint32_t id;
  double at;
} Rec;

typedef struct {
  int fd;
  int state;
  int subscribed, settled, closed_early, was_open;
  double reconnect_at; // soak: when a dropped viewer opens again (0 = not waiting)
  unsigned char *in;
  size_t in_len, in_cap;
  unsigned char *msg; // fragmented message being assembled
  size_t msg_len, msg_cap;
  int msg_opcode;
  Rec *recs;
  uint32_t count, cap;
} Viewer;

typedef struct {
  uint64_t hash;
  uint32_t len;
  unsigned char *data;
} Payload;

static const char *host, *path_, *origin, *poll_id;
static int port, nviewers, batch, protocol;
static int soak, closing;
static int topic_mode;         // pollId names a whole topic (it holds a ':')
static char topic_needle[256]; // "topic":"<topic>", in every message about the topic
static uint64_t reconnects;
static int awaiting_reconnect; // viewers with a reconnect_at set
static Viewer *viewers;
static int ep;
static Payload *payloads;
static uint32_t npayloads, payloads_cap;
static uint32_t *table; // open addressing: payload index + 1, 0 = empty
static uint32_t table_size = 1u << 18;
static uint64_t messages, bytes_in;
static double last_message_at;
static char errors[5][200];
static int nerrors;
// Processing time per epoll round (the C analogue of an event-loop delay), 0.1 ms buckets.
#define BUSY_BUCKETS 100000
static uint32_t busy_hist[BUSY_BUCKETS];
static double busy_max;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static double mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void note_error(const char *what) {
  if (nerrors < 5) snprintf(errors[nerrors++], sizeof errors[0], "%s", what);
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static uint32_t payload_id(const unsigned char *p, size_t n) {
  uint64_t h = fnv1a(p, n);
  uint32_t mask = table_size - 1, slot = (uint32_t)h & mask;
  for (;;) {
    uint32_t v = table[slot];
    if (v == 0) break;
    Payload *pl = &payloads[v - 1];
    if (pl->hash == h && pl->len == n && memcmp(pl->data, p, n) == 0) return v - 1;
    slot = (slot + 1) & mask;
  }
  if (npayloads == payloads_cap) {
    payloads_cap = payloads_cap ? payloads_cap * 2 : 1024;
    payloads = realloc(payloads, payloads_cap * sizeof *payloads);
  }
  if ((npayloads + 1) * 2 > table_size) { // grow and rehash
    free(table);
    table_size *= 2;
    table = calloc(table_size, sizeof *table);
    mask = table_size - 1;
    for (uint32_t i = 0; i < npayloads; i++) {
      uint32_t s = (uint32_t)payloads[i].hash & mask;
      while (table[s]) s = (s + 1) & mask;
      table[s] = i + 1;
    }
    slot = (uint32_t)h & mask;
    while (table[slot]) slot = (slot + 1) & mask;
  }
  Payload *pl = &payloads[npayloads];
  pl->hash = h;
  pl->len = (uint32_t)n;
  pl->data = malloc(n ? n : 1);
  memcpy(pl->data, p, n);
  table[slot] = npayloads + 1;
  return npayloads++;
}

static void clear_payloads(void) {
  for (uint32_t i = 0; i < npayloads; i++) free(payloads[i].data);
  npayloads = 0;
  memset(table, 0, table_size * sizeof *table);
}

static void send_all(Viewer *v, const unsigned char *buf, size_t n) {
  while (n > 0) {
    ssize_t w = write(v->fd, buf, n);
    if (w > 0) {
      buf += w;
      n -= (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else if (w < 0 && errno == EAGAIN) {
      // Client frames are tiny (subscribe, pong); a full send buffer means a dead peer.
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL);
    } else {
      return;
    }
  }
}

static void send_frame(Viewer *v, int opcode, const char *data, size_t n) {
  unsigned char buf[512];
  if (n > 400) n = 400;
  size_t h = 0;
  buf[h++] = (unsigned char)(0x80 | opcode);
  buf[h++] = (unsigned char)(0x80 | n); // n < 126
  const unsigned char mask[4] = {0x37, 0xfa, 0x21, 0x3d};
  memcpy(buf + h, mask, 4);
  h += 4;
  for (size_t i = 0; i < n; i++) buf[h + i] = (unsigned char)data[i] ^ mask[i & 3];
  send_all(v, buf, h + n);
}

static void send_text(Viewer *v, const char *text) { send_frame(v, 0x1, text, strlen(text)); }

static void settle(Viewer *v, int subscribed) {
  if (v->settled) return;
  v->settled = 1;
  v->subscribed = subscribed;
}

static void record(Viewer *v, uint32_t id, double at) {
  if (v->count == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 64;
    v->recs = realloc(v->recs, v->cap * sizeof *v->recs);
  }
  v->recs[v->count].id = id;
  v->recs[v->count].at = at;
  v->count++;
}

static int has(const unsigned char *p, size_t n, const char *needle) { return memmem(p, n, needle, strlen(needle)) != NULL; }

static void on_text(Viewer *v, const unsigned char *p, size_t n, double at) {
  messages++;
  bytes_in += n;
  last_message_at = at;
  if (protocol == P_SOCKETIO) {
    if (n == 1 && p[0] == '2') return send_text(v, "3");
    if (n >= 1 && p[0] == '0') return send_text(v, "40");
    if (n >= 2 && p[0] == '4' && p[1] == '0') {
      char msg[200];
      snprintf(msg, sizeof msg, "42[\"subscribe\",\"%s\"]", poll_id);
      return send_text(v, msg);
    }
  }
  if (!soak) record(v, payload_id(p, n), at);
  if (!v->settled && topic_mode) {
    if (has(p, n, "\"type\":\"error\"")) settle(v, 0);
    else if (has(p, n, topic_needle)) settle(v, 1);
  } else if (!v->settled) {
    if (has(p, n, "\"results\"") || has(p, n, "\"subscribed\"")) settle(v, 1);
    else if (has(p, n, "\"error\"")) settle(v, 0);
  }
}

static void close_viewer(Viewer *v) {
  if (v->state == ST_CLOSED) return;
  if (v->state == ST_OPEN) v->closed_early = 1;
  epoll_ctl(ep, EPOLL_CTL_DEL, v->fd, NULL);
  close(v->fd);
  v->state = ST_CLOSED;
  settle(v, 0);
  if (soak && !closing) {
    v->reconnect_at = mono_ms() + 1000 + (double)(rand() % 2000);
    awaiting_reconnect++;
  }
}

static void on_frame(Viewer *v, int fin, int opcode, const unsigned char *p, size_t n, double at) {
  if (opcode == 0x9) return send_frame(v, 0xA, (const char *)p, n);
  if (opcode == 0xA) return;
  if (opcode == 0x8) return close_viewer(v);
  if (opcode == 0x1 || opcode == 0x2) {
    if (fin) return on_text(v, p, n, at);
    v->msg_opcode = opcode;
    v->msg_len = 0;
  }
  if (v->msg_len + n > v->msg_cap) {
    v->msg_cap = (v->msg_len + n) * 2;
    v->msg = realloc(v->msg, v->msg_cap);
  }
  memcpy(v->msg + v->msg_len, p, n);
  v->msg_len += n;
  if (fin) {
    on_text(v, v->msg, v->msg_len, at);
    v->msg_len = 0;
  }
}

static void parse_frames(Viewer *v, double at) {
  size_t off = 0;
  while (v->state == ST_OPEN) {
    size_t avail = v->in_len - off;
    if (avail < 2) break;
    const unsigned char *b = v->in + off;
    int fin = b[0] >> 7, opcode = b[0] & 0x0f, masked = b[1] >> 7;
    uint64_t len = b[1] & 0x7f;
    size_t h = 2;
    if (len == 126) {
      if (avail < 4) break;
      len = ((uint64_t)b[2] << 8) | b[3];
      h = 4;
    } else if (len == 127) {
      if (avail < 10) break;
      len = 0;
      for (int i = 0; i < 8; i++) len = (len << 8) | b[2 + i];
      h = 10;
    }
    if (masked) h += 4; // servers never mask; tolerated anyway
    if (avail < h + len) break;
    unsigned char *payload = (unsigned char *)b + h;
    if (masked) {
      const unsigned char *m = b + h - 4;
      for (uint64_t i = 0; i < len; i++) payload[i] ^= m[i & 3];
    }
    on_frame(v, fin, opcode, payload, (size_t)len, at);
    off += h + (size_t)len;
  }
  if (v->state == ST_CLOSED) return;
  if (off > 0) {
    memmove(v->in, v->in + off, v->in_len - off);
    v->in_len -= off;
  }
}

static void start_handshake(Viewer *v) {
  char req[1024];
  // Each viewer is its own fan: behind the (trusted, loopback) proxy it has its own address, so
  // the per-address connection limits apply per viewer as in production.
  long i = (long)(v - viewers);
  int n = snprintf(req, sizeof req,
                   "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n"
                   "X-Forwarded-For: %ld.%ld.%ld.%ld\r\n\r\n",
                   path_, host, port, origin, soak ? 172L : 10L, soak ? 16 + ((i >> 16) & 15) : (i >> 16) & 255, (i >> 8) & 255, i & 255);
  v->state = ST_HANDSHAKE;
  send_all(v, (const unsigned char *)req, (size_t)n);
}

static void on_readable(Viewer *v) {
  for (;;) {
    if (v->in_cap - v->in_len < 16384) {
      v->in_cap = v->in_cap ? v->in_cap * 2 : 65536;
      v->in = realloc(v->in, v->in_cap);
    }
    ssize_t r = read(v->fd, v->in + v->in_len, v->in_cap - v->in_len);
    if (r == 0) return close_viewer(v);
    if (r < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN) close_viewer(v);
      return;
    }
    double at = now_ms();
    v->in_len += (size_t)r;
    if (v->state == ST_HANDSHAKE) {
      unsigned char *end = memmem(v->in, v->in_len, "\r\n\r\n", 4);
      if (!end) continue;
      if (v->in_len < 12 || memcmp(v->in, "HTTP/1.1 101", 12) != 0) {
        note_error("handshake refused");
        return close_viewer(v);
      }
      size_t head = (size_t)(end - v->in) + 4;
      memmove(v->in, v->in + head, v->in_len - head);
      v->in_len -= head;
      v->state = ST_OPEN;
      v->was_open = 1;
      if (protocol != P_SOCKETIO) {
        char msg[200];
        if (protocol == P_TRIBUNA)
          snprintf(msg, sizeof msg, "{\"type\":\"subscribe\",\"topic\":\"%s%s\"}", topic_mode ? "" : "poll:", poll_id);
        else
          snprintf(msg, sizeof msg, "{\"type\":\"subscribe\",\"pollId\":\"%s\"}", poll_id);
        send_text(v, msg);
      }
    }
    parse_frames(v, at);
    if (v->state == ST_CLOSED || (size_t)r < 16384) return;
  }
}

static void on_event(Viewer *v, uint32_t events) {
  if (v->state == ST_CONNECTING) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(v->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) {
      note_error(strerror(err));
      return close_viewer(v);
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = v};
    epoll_ctl(ep, EPOLL_CTL_MOD, v->fd, &ev);
    return start_handshake(v);
  }
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(v);
}

static int start_connect(Viewer *v) {
  v->in_len = v->msg_len = 0;
  v->settled = v->subscribed = 0;
  if (v->reconnect_at > 0) awaiting_reconnect--;
  v->reconnect_at = 0;
  v->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (v->fd < 0) {
    note_error(strerror(errno));
    v->state = ST_CLOSED;
    settle(v, 0);
    return -1;
  }
  int one = 1;
  setsockopt(v->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, host, &addr.sin_addr);
  v->state = ST_CONNECTING;
  struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = v};
  epoll_ctl(ep, EPOLL_CTL_ADD, v->fd, &ev);
  if (connect(v->fd, (struct sockaddr *)&addr, sizeof addr) < 0 && errno != EINPROGRESS) {
    note_error(strerror(errno));
    close_viewer(v);
    return -1;
  }
  return 0;
}

static void loop_once(int timeout_ms, int *stdin_ready) {
  struct epoll_event evs[1024];
  int n = epoll_wait(ep, evs, 1024, timeout_ms);
  double t0 = mono_ms();
  for (int i = 0; i < n; i++) {
    if (evs[i].data.ptr == NULL) {
      *stdin_ready = 1;
      continue;
    }
    on_event((Viewer *)evs[i].data.ptr, evs[i].events);
  }
  if (awaiting_reconnect > 0 && !closing) {
    double now = mono_ms();
    for (int i = 0; i < nviewers; i++)
      if (viewers[i].state == ST_CLOSED && viewers[i].reconnect_at > 0 && viewers[i].reconnect_at <= now) {
        reconnects++;
        start_connect(&viewers[i]);
      }
  }
  if (n > 0) {
    double busy = mono_ms() - t0;
    int b = (int)(busy * 10);
    busy_hist[b < BUSY_BUCKETS ? b : BUSY_BUCKETS - 1]++;
    if (busy > busy_max) busy_max = busy;
  }
}

static double busy_percentile(double q) {
  uint64_t total = 0, seen = 0;
  for (int i = 0; i < BUSY_BUCKETS; i++) total += busy_hist[i];
  if (total == 0) return 0;
  for (int i = 0; i < BUSY_BUCKETS; i++) {
    seen += busy_hist[i];
    if (seen >= q * total) return (i + 1) / 10.0;
  }
  return busy_max;
}

static void json_errors(char *out, size_t cap) {
  size_t o = 0;
  o += (size_t)snprintf(out + o, cap - o, "[");
  for (int i = 0; i < nerrors; i++) o += (size_t)snprintf(out + o, cap - o, "%s\"%s\"", i ? "," : "", errors[i]);
  snprintf(out + o, cap - o, "]");
}

static void cmd_connect(void) {
  double started = mono_ms();
  int dummy = 0;
  for (int start = 0; start < nviewers; start += batch) {
    int end = start + batch < nviewers ? start + batch : nviewers;
    for (int i = start; i < end; i++) start_connect(&viewers[i]);
    double deadline = mono_ms() + 30000;
    for (;;) {
      int pending = 0;
      for (int i = start; i < end; i++) pending += !viewers[i].settled;
      if (!pending || mono_ms() > deadline) break;
      loop_once(50, &dummy);
    }
  }
  int open = 0, subscribed = 0;
  for (int i = 0; i < nviewers; i++) {
    open += viewers[i].state == ST_OPEN;
    subscribed += viewers[i].subscribed;
  }
  char errs[1200];
  json_errors(errs, sizeof errs);
  printf("{\"type\":\"connected\",\"viewers\":%d,\"open\":%d,\"subscribed\":%d,\"ms\":%.0f,\"errors\":%s}\n", nviewers, open, subscribed,
         mono_ms() - started, errs);
  fflush(stdout);
}

static void put_u32(FILE *f, uint32_t x) { fwrite(&x, 4, 1, f); }

static void cmd_dump(const char *file) {
  FILE *f = fopen(file, "wb");
  if (!f) {
    printf("{\"type\":\"error\",\"message\":\"cannot write %s\"}\n", file);
    fflush(stdout);
    return;
  }
  put_u32(f, npayloads);
  for (uint32_t i = 0; i < npayloads; i++) {
    put_u32(f, payloads[i].len);
    fwrite(payloads[i].data, 1, payloads[i].len, f);
  }
  put_u32(f, (uint32_t)nviewers);
  for (int i = 0; i < nviewers; i++) {
    Viewer *v = &viewers[i];
    unsigned char flags[3] = {(unsigned char)(v->state == ST_OPEN), (unsigned char)v->subscribed, (unsigned char)v->closed_early};
    fwrite(flags, 1, 3, f);
    put_u32(f, v->count);
    for (uint32_t k = 0; k < v->count; k++) {
      put_u32(f, v->recs[k].id);
      fwrite(&v->recs[k].at, 8, 1, f);
    }
  }
  fclose(f);
  char errs[1200];
  json_errors(errs, sizeof errs);
  printf("{\"type\":\"dumped\",\"payloads\":%u,\"messages\":%llu,\"bytes\":%llu,\"errors\":%s,"
         "\"busy\":{\"p50Ms\":%.1f,\"p99Ms\":%.1f,\"maxMs\":%.1f}}\n",
         npayloads, (unsigned long long)messages, (unsigned long long)bytes_in, errs, busy_percentile(0.5), busy_percentile(0.99), busy_max);
  fflush(stdout);
}

static void cmd_reset(void) {
  for (int i = 0; i < nviewers; i++) viewers[i].count = 0;
  clear_payloads();
  messages = bytes_in = 0;
  memset(busy_hist, 0, sizeof busy_hist);
  busy_max = 0;
  printf("{\"type\":\"reset-done\"}\n");
  fflush(stdout);
}

static char line[4096];
static size_t line_len;

// Runs every complete command line read from stdin; returns 0 once stdin is closed.
static int read_commands(void) {
  for (;;) {
    ssize_t r = read(0, line + line_len, sizeof line - 1 - line_len);
    if (r == 0) return 0;
    if (r < 0) return errno == EAGAIN || errno == EINTR;
    line_len += (size_t)r;
    char *nl;
    while ((nl = memchr(line, '\n', line_len))) {
      *nl = 0;
      if (strcmp(line, "connect") == 0) cmd_connect();
      else if (strcmp(line, "reset") == 0) cmd_reset();
      else if (strcmp(line, "status") == 0) {
        int open = 0, subscribed = 0;
        for (int i = 0; i < nviewers; i++) {
          open += viewers[i].state == ST_OPEN;
          subscribed += viewers[i].state == ST_OPEN && viewers[i].subscribed;
        }
        printf("{\"type\":\"status\",\"lastMessageAt\":%.0f,\"messages\":%llu,\"now\":%.0f,\"viewers\":%d,\"open\":%d,\"subscribed\":%d,"
               "\"reconnects\":%llu}\n",
               last_message_at, (unsigned long long)messages, now_ms(), nviewers, open, subscribed, (unsigned long long)reconnects);
        fflush(stdout);
      } else if (strncmp(line, "dump ", 5) == 0) cmd_dump(line + 5);
      else if (strcmp(line, "close") == 0) {
        closing = 1;
        for (int i = 0; i < nviewers; i++)
          if (viewers[i].state != ST_CLOSED) close(viewers[i].fd);
        printf("{\"type\":\"closed\"}\n");
        fflush(stdout);
        exit(0);
      }
      size_t used = (size_t)(nl - line) + 1;
      memmove(line, line + used, line_len - used);
      line_len -= used;
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 9 && !(argc == 10 && strcmp(argv[9], "soak") == 0)) {
    fprintf(stderr, "usage: %s host port path origin viewers batch tribuna|raw|socketio pollId [soak]\n", argv[0]);
    return 2;
  }
  host = argv[1];
  port = atoi(argv[2]);
  path_ = argv[3];
  origin = argv[4];
  nviewers = atoi(argv[5]);
  batch = atoi(argv[6]);
  protocol = strcmp(argv[7], "socketio") == 0 ? P_SOCKETIO : strcmp(argv[7], "raw") == 0 ? P_RAW : P_TRIBUNA;
  poll_id = argv[8];
  topic_mode = strchr(poll_id, ':') != NULL;
  snprintf(topic_needle, sizeof topic_needle, "\"topic\":\"%s\"", poll_id);
  soak = argc == 10;
  srand((unsigned)getpid());
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  viewers = calloc((size_t)nviewers, sizeof *viewers);
  table = calloc(table_size, sizeof *table);
  ep = epoll_create1(0);
  fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
  printf("{\"type\":\"ready\"}\n");
  fflush(stdout);
  for (;;) {
    int stdin_ready = 0;
    loop_once(1000, &stdin_ready);
    if (stdin_ready && !read_commands()) return 0;
  }
}
