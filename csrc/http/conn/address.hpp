// csrc/http/conn/address.hpp: socket addresses of one origin: IP literals, resolve overrides, getaddrinfo (IPv4/IPv6).
#pragma once
#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <vector>

namespace boltwire::http::conn {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
};

// True when `host` is an IPv4 or IPv6 literal (resolve_addresses answers it without DNS).
bool is_ip_literal(const std::string &host) noexcept;

// Fills `out` with the addresses to try for host:port, in order. An IP literal (IPv4 or IPv6, with or without
// brackets) is used as is; anything else goes through getaddrinfo (blocking: call it off the asyncio loop).
// Returns true on success; on failure `error` says why (gai_strerror text).
bool resolve_addresses(const std::string &host, std::uint16_t port, std::vector<SocketAddress> &out,
                       std::string &error) noexcept;

// The address as an IP literal ("192.0.2.1", "2001:db8::1"); empty for another family. Throws std::bad_alloc.
std::string numeric_host(const SocketAddress &address);

}  // namespace boltwire::http::conn
