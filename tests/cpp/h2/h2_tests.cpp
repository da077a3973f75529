// tests/cpp/h2/h2_tests.cpp: the HTTP/2 client session (csrc/http/h2) against an in-process nghttp2 server session
// over memory (no sockets): request fields, a round trip with an interim head, a body through a tiny window, stream
// resets both ways, GOAWAY refusing streams, a listener stopping a stream, garbage from the server.
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "check.hpp"
#include "http/h2/request_fields.hpp"
#include "http/h2/session.hpp"

namespace {

namespace h2 = boltwire::http::h2;

// ---- the server side: nghttp2's own server session -----------------------------------------------------------

struct Request {
  std::map<std::string, std::string> fields;
  std::string body;
  bool ended = false;
  std::string response;  // the body it is answered with (kept alive while nghttp2 reads it)
  std::size_t sent = 0;
};

struct Server {
  nghttp2_session *session = nullptr;
  std::map<std::int32_t, Request> requests;
  std::vector<std::pair<std::int32_t, std::uint32_t>> resets;  // RST_STREAMs received

  explicit Server(std::vector<nghttp2_settings_entry> settings = {}) {
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(
        cb, [](nghttp2_session *, const nghttp2_frame *f, const std::uint8_t *n, std::size_t nl, const std::uint8_t *v,
               std::size_t vl, std::uint8_t, void *u) {
          static_cast<Server *>(u)->requests[f->hd.stream_id].fields[std::string(reinterpret_cast<const char *>(n), nl)] =
              std::string(reinterpret_cast<const char *>(v), vl);
          return 0;
        });
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
        cb, [](nghttp2_session *, std::uint8_t, std::int32_t id, const std::uint8_t *d, std::size_t len, void *u) {
          static_cast<Server *>(u)->requests[id].body.append(reinterpret_cast<const char *>(d), len);
          return 0;
        });
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, [](nghttp2_session *, const nghttp2_frame *f, void *u) {
      auto *self = static_cast<Server *>(u);
      if (f->hd.type == NGHTTP2_RST_STREAM) self->resets.emplace_back(f->hd.stream_id, f->rst_stream.error_code);
      if ((f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA) && (f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        self->requests[f->hd.stream_id].ended = true;
      return 0;
    });
    nghttp2_session_server_new(&session, cb, this);
    nghttp2_session_callbacks_del(cb);
    nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
  }
  ~Server() { nghttp2_session_del(session); }

  bool feed(std::string_view bytes) {
    return nghttp2_session_mem_recv(session, reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()) >= 0;
  }
  std::string output() {
    std::string out;
    for (;;) {
      const std::uint8_t *p;
      ssize_t n = nghttp2_session_mem_send(session, &p);
      if (n <= 0) return out;
      out.append(reinterpret_cast<const char *>(p), static_cast<std::size_t>(n));
    }
  }
  void respond(std::int32_t id, const char *status, std::string body,
               std::vector<std::pair<std::string, std::string>> extra = {}) {
    Request &r = requests[id];
    r.response = std::move(body);
    std::vector<nghttp2_nv> nva;
    auto add = [&](const std::string &n, const std::string &v) {
      nva.push_back({reinterpret_cast<std::uint8_t *>(const_cast<char *>(n.data())),
                     reinterpret_cast<std::uint8_t *>(const_cast<char *>(v.data())), n.size(), v.size(),
                     NGHTTP2_NV_FLAG_NONE});
    };
    std::string status_name = ":status", status_value = status;
    add(status_name, status_value);
    for (auto &[n, v] : extra) add(n, v);
    nghttp2_data_provider provider{};
    provider.source.ptr = &r;
    provider.read_callback = [](nghttp2_session *, std::int32_t, std::uint8_t *buf, std::size_t length,
                                std::uint32_t *flags, nghttp2_data_source *source, void *) -> ssize_t {
      auto *req = static_cast<Request *>(source->ptr);
      std::size_t n = std::min(length, req->response.size() - req->sent);
      std::copy_n(req->response.data() + req->sent, n, buf);
      req->sent += n;
      if (req->sent == req->response.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
      return static_cast<ssize_t>(n);
    };
    nghttp2_submit_response(session, id, nva.data(), nva.size(), &provider);
  }
  void interim(std::int32_t id) {
    nghttp2_nv nv{reinterpret_cast<std::uint8_t *>(const_cast<char *>(":status")),
                  reinterpret_cast<std::uint8_t *>(const_cast<char *>("103")), 7, 3, NGHTTP2_NV_FLAG_NONE};
    nghttp2_submit_headers(session, NGHTTP2_FLAG_NONE, id, nullptr, &nv, 1, nullptr);
  }
};

// ---- the client side's listener: a log of events --------------------------------------------------------------

struct Log final : h2::Listener {
  std::string text;
  std::map<void *, std::string> data;
  std::size_t stop_data_after = SIZE_MAX;

  static int id(void *stream) { return static_cast<int>(reinterpret_cast<std::intptr_t>(stream)); }
  void add(void *stream, const std::string &what) { text += std::to_string(id(stream)) + ":" + what + ";"; }

  bool on_field(void *stream, std::string_view name, std::string_view value) override {
    add(stream, std::string(name) + "=" + std::string(value));
    return true;
  }
  void on_interim(void *stream) override { add(stream, "interim"); }
  bool on_head(void *stream, std::uint16_t status) override {
    add(stream, "head " + std::to_string(status));
    return true;
  }
  bool on_data(void *stream, std::string_view bytes) override {
    data[stream].append(bytes);
    if (data[stream].size() > stop_data_after) {
      add(stream, "stop");
      return false;
    }
    return true;
  }
  void on_sent(void *, bool) override {}
  void on_end(void *stream, h2::StreamEnd end, std::uint32_t code) override {
    static const char *names[] = {"Complete", "Reset", "Refused", "Failed"};
    add(stream, std::string("end ") + names[static_cast<int>(end)] + " " + std::to_string(code));
  }
};

void *tag(int n) { return reinterpret_cast<void *>(static_cast<std::intptr_t>(n)); }

// Moves bytes both ways until neither side has anything more to send.
void pump(h2::Session &client, Server &server, Log &log) {
  for (int round = 0; round < 1000; ++round) {
    client.produce(log, 1 << 20);
    std::string up(client.output());
    client.consume_output(up.size());
    if (!up.empty()) BW_CHECK(server.feed(up));
    std::string down = server.output();
    if (!down.empty()) client.feed(down.data(), down.size(), log);
    if (up.empty() && down.empty()) return;
  }
  BW_CHECK(!"pump did not settle");
}

std::int32_t submit(h2::Session &client, const char *head, std::string_view body, int n, bool https = false) {
  h2::RequestFields fields;
  BW_CHECK(h2::fields_from_head(head, https, fields) > 0);
  return client.submit(fields.fields, body, tag(n));
}

h2::Session &started(h2::Session &client) {
  BW_CHECK(client.start(h2::Settings{}));
  return client;
}

// ---- tests ------------------------------------------------------------------------------------------------------

void test_request_fields() {
  std::string request =
      "POST /p?q=1 HTTP/1.1\r\nHost: example.com:8443\r\nUser-Agent: ua\r\nConnection: keep-alive\r\n"
      "Keep-Alive: 5\r\nTE: trailers\r\nX-Mixed-Case: A b\r\nContent-Length: 3\r\n\r\nabc";
  h2::RequestFields f;
  std::size_t head = h2::fields_from_head(request, true, f);
  BW_CHECK(head == request.size() - 3);
  std::string joined;
  for (const h2::Field &field : f.fields) joined += std::string(field.name) + "=" + std::string(field.value) + "\n";
  BW_CHECK_EQ(joined,
              ":method=POST\n:scheme=https\n:authority=example.com:8443\n:path=/p?q=1\nuser-agent=ua\nte=trailers\n"
              "x-mixed-case=A b\ncontent-length=3\n");
  BW_CHECK(h2::fields_from_head("GET / HTTP/1.1\r\nHost: h\r\nTE: gzip\r\n\r\n", false, f) > 0);
  BW_CHECK(f.fields.size() == 4 && f.fields[1].value == "http");  // TE other than trailers is dropped
  BW_CHECK(h2::fields_from_head("GET / HTTP/1.1\r\nHost: h\r\n", false, f) == 0);  // no end of head
  BW_CHECK(h2::fields_from_head("GET\r\n\r\n", false, f) == 0);
  BW_CHECK(h2::fields_from_head("GET / HTTP/1.1\r\nno colon\r\n\r\n", false, f) == 0);
}

void test_round_trip_with_interim_head() {
  h2::Session client;
  Server server;
  Log log;
  std::int32_t id = submit(started(client), "GET /x HTTP/1.1\r\nHost: h.test\r\nAccept: */*\r\n\r\n", {}, 1);
  BW_CHECK(id == 1);
  pump(client, server, log);
  BW_CHECK(client.settings_received());
  Request &r = server.requests[1];
  BW_CHECK(r.ended);
  BW_CHECK_EQ(r.fields[":method"], "GET");
  BW_CHECK_EQ(r.fields[":path"], "/x");
  BW_CHECK_EQ(r.fields[":authority"], "h.test");
  BW_CHECK_EQ(r.fields[":scheme"], "http");
  BW_CHECK_EQ(r.fields["accept"], "*/*");
  BW_CHECK(r.fields.count("host") == 0);
  server.interim(1);
  server.respond(1, "200", "hello", {{"content-encoding", "gzip"}});
  pump(client, server, log);
  BW_CHECK_EQ(log.text, "1:interim;1:content-encoding=gzip;1:head 200;1:end Complete 0;");
  BW_CHECK_EQ(log.data[tag(1)], "hello");
  BW_CHECK(client.open_streams() == 0 && client.alive());
}

void test_body_through_a_tiny_window() {
  h2::Session client;
  Server server({{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 100}, {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1}});
  Log log;
  std::string body(100000, 'x');
  for (std::size_t i = 0; i < body.size(); ++i) body[i] = static_cast<char>('a' + i % 26);
  submit(started(client), "PUT /u HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n", body, 1);
  pump(client, server, log);
  BW_CHECK(client.max_streams() == 1);
  BW_CHECK(server.requests[1].ended);
  BW_CHECK(server.requests[1].body == body);
  std::string big(300000, 'r');  // many 16 KiB frames (the server's default 64 KiB window is ours to widen)
  server.respond(1, "201", big);
  pump(client, server, log);
  BW_CHECK_EQ(log.text, "1:head 201;1:end Complete 0;");
  BW_CHECK(log.data[tag(1)] == big);
}

void test_resets_both_ways() {
  h2::Session client;
  Server server;
  Log log;
  started(client);
  submit(client, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n", {}, 1);
  std::int32_t second = submit(client, "GET /b HTTP/1.1\r\nHost: h\r\n\r\n", {}, 2);
  pump(client, server, log);
  nghttp2_submit_rst_stream(server.session, NGHTTP2_FLAG_NONE, 1, NGHTTP2_INTERNAL_ERROR);
  client.forget(second);  // a cancelled request: RST_STREAM CANCEL, and no event for it any more
  pump(client, server, log);
  BW_CHECK_EQ(log.text, "1:end Reset 2;");
  BW_CHECK(server.resets.size() == 1 && server.resets[0].first == 3 && server.resets[0].second == NGHTTP2_CANCEL);
  BW_CHECK_EQ(std::string(h2::Session::code_name(NGHTTP2_ENHANCE_YOUR_CALM)), "ENHANCE_YOUR_CALM");
}

void test_goaway_refuses_later_streams() {
  h2::Session client;
  Server server;
  Log log;
  started(client);
  for (int i = 1; i <= 3; ++i) submit(client, "GET / HTTP/1.1\r\nHost: h\r\n\r\n", {}, i);
  pump(client, server, log);
  nghttp2_submit_goaway(server.session, NGHTTP2_FLAG_NONE, 1, NGHTTP2_NO_ERROR, nullptr, 0);
  server.respond(1, "200", "one");
  pump(client, server, log);
  BW_CHECK_EQ(log.text, "2:end Refused 7;3:end Refused 7;1:head 200;1:end Complete 0;");
  BW_CHECK(client.goaway_received());
  BW_CHECK(submit(client, "GET / HTTP/1.1\r\nHost: h\r\n\r\n", {}, 4) == 0);  // no new streams after GOAWAY
}

void test_listener_stops_a_stream() {
  h2::Session client;
  Server server;
  Log log;
  log.stop_data_after = 10;
  submit(started(client), "GET / HTTP/1.1\r\nHost: h\r\n\r\n", {}, 1);
  pump(client, server, log);
  server.respond(1, "200", std::string(50000, 'z'));
  pump(client, server, log);
  BW_CHECK_EQ(log.text, "1:head 200;1:stop;");  // no end event after a stop
  BW_CHECK(server.resets.size() == 1 && server.resets[0].second == NGHTTP2_CANCEL);
  BW_CHECK(client.open_streams() == 0 && client.alive());
}

void test_garbage_breaks_the_session() {
  h2::Session client;
  Log log;
  submit(started(client), "GET / HTTP/1.1\r\nHost: h\r\n\r\n", {}, 1);
  client.produce(log, 1 << 20);
  std::string garbage = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  // nghttp2 answers with GOAWAY PROTOCOL_ERROR: the session is broken once that went out.
  bool fed = client.feed(garbage.data(), garbage.size(), log);
  BW_CHECK(!fed || !client.produce(log, 1 << 20));
  BW_CHECK(client.broken() && !client.alive());
  BW_CHECK(client.error_text().find("PROTOCOL_ERROR") != std::string::npos);
  BW_CHECK(!client.feed("", 0, log));
  int drained = 0;
  client.drain_streams([&](void *) { ++drained; });
  BW_CHECK(drained == 1 && client.open_streams() == 0);
}

}  // namespace

int main() {
  test_request_fields();
  test_round_trip_with_interim_head();
  test_body_through_a_tiny_window();
  test_resets_both_ways();
  test_goaway_refuses_later_streams();
  test_listener_stops_a_stream();
  test_garbage_breaks_the_session();
  std::printf("%d checks, %d failures\n", bwtest::counters.checks, bwtest::counters.failures);
  return bwtest::counters.failures == 0 ? 0 : 1;
}
