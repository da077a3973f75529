// csrc/http/tls/session.hpp: TlsSession, one connection's TLS client as a sans-IO state machine over ByteQueues.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/tls/context.hpp"
#include "http/tls/errors.hpp"
#include "http/tls/memory_bio.hpp"

struct ssl_st;

namespace boltwire::http::tls {

// What a call needs before it can go on.
//   Done      the call finished (handshake complete, bytes read, plaintext taken). output() may still hold
//             ciphertext (the client's Finished, an encrypted request): send it before waiting to read.
//   NeedWrite the call is blocked on the peer and the peer first needs output(): write all of it, then call again.
//   NeedRead  nothing to send; feed ciphertext from the socket (or feed_eof()), then call again.
//   Closed    the peer sent close_notify: a clean end of the stream.
//   Failed    error() says why (see errors.hpp); output() may hold an alert worth a best-effort send.
enum class TlsStep : std::uint8_t { Done, NeedRead, NeedWrite, Closed, Failed };
enum class TlsState : std::uint8_t { Idle, Handshaking, Open, Closed, Failed };

// Overview
//   The engine (or a blocking caller) owns the socket; a TlsSession owns only bytes. Ciphertext read from the
//   socket goes in with feed() or input_space()/commit_input(); ciphertext to send comes out of output() /
//   consume_output(). Between them the caller drives handshake(), then write()/read(), then close().
//     Idle --start--> Handshaking --handshake() Done--> Open --peer close_notify--> Closed
//     Handshaking / Open --any fatal error--> Failed      Open --close()--> Closed (our close_notify in output)
// Invariants
//   - A session is pinned in memory (no copy, no move): OpenSSL holds pointers to its pipes and its session key.
//   - Once Failed, every call returns Failed and error() keeps the first cause.
//   - The TlsContext it started from outlives it.
class TlsSession {
 public:
  TlsSession() = default;
  TlsSession(const TlsSession &) = delete;
  TlsSession &operator=(const TlsSession &) = delete;
  ~TlsSession();

  // Prepares the client for `host` (a DNS name, or an IP literal, IPv6 with or without brackets): SNI for names
  // only, the certificate checked against the name or the address, and a cached session of `origin` offered for
  // resumption. False (state Failed, error Internal) when OpenSSL cannot allocate.
  bool start(TlsContext &context, std::string_view host, std::string_view origin) noexcept;

  TlsStep handshake() noexcept;
  // Encrypts all of [data, data+size) into output() (accepted = size) unless the session failed.
  TlsStep write(const char *data, std::size_t size, std::size_t &accepted) noexcept;
  // Decrypts into [buffer, buffer+capacity); Done with got > 0, or what it needs first.
  TlsStep read(char *buffer, std::size_t capacity, std::size_t &got) noexcept;
  // Queues our close_notify in output() (we do not wait for the peer's); the session is Closed afterwards.
  TlsStep close() noexcept;

  // Ciphertext from the socket: copy it in, or read into input_space() and commit_input() the count.
  bool feed(const char *data, std::size_t size) noexcept { return pipes_.input.append(data, size); }
  char *input_space(std::size_t min, std::size_t &room) noexcept { return pipes_.input.prepare(min, room); }
  void commit_input(std::size_t size) noexcept { pipes_.input.commit(size); }
  // The socket reached end of stream: after the buffered input, OpenSSL sees EOF (close_notify or truncation).
  void feed_eof() noexcept { pipes_.input_eof = true; }
  // Whether read() has anything to work on without more from the socket: fed ciphertext, the EOF mark, or records
  // (or plaintext) OpenSSL already holds. When false, read() could only ask for input: fill it first.
  bool has_pending_input() const noexcept;
  // Ciphertext for the socket.
  std::string_view output() const noexcept { return pipes_.output.view(); }
  bool has_output() const noexcept { return !pipes_.output.empty(); }
  void consume_output(std::size_t size) noexcept { pipes_.output.consume(size); }

  TlsState state() const noexcept { return state_; }
  TlsError error() const noexcept { return error_; }
  // OpenSSL's own words for the failure: the verify result text for certificate errors, else its reason string.
  const std::string &error_detail() const noexcept { return detail_; }
  // "<catalogue message>: <detail>" (or the message alone); empty when out of memory.
  std::string error_text() const noexcept;
  // After the handshake: the protocol the server chose by ALPN ("" when none), the version, resumption.
  std::string_view alpn() const noexcept;
  TlsVersion version() const noexcept;
  std::string_view version_name() const noexcept;  // "TLSv1.3"
  bool resumed() const noexcept;

 private:
  TlsStep settle(int ret) noexcept;  // after a call returned <= 0
  TlsStep fail_with(TlsError error, const char *detail) noexcept;
  TlsStep waiting() const noexcept { return has_output() ? TlsStep::NeedWrite : TlsStep::NeedRead; }

  ssl_st *ssl_ = nullptr;
  BioPipes pipes_;
  SessionKey key_;
  TlsState state_ = TlsState::Idle;
  TlsError error_ = TlsError::None;
  std::string detail_;
};

}  // namespace boltwire::http::tls
