// csrc/http/conn/address.cpp: IP literal parsing and getaddrinfo for resolve_addresses().
#include "http/conn/address.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <cstring>

namespace boltwire::http::conn {

namespace {

bool parse_literal(const std::string &host, std::uint16_t port, SocketAddress &out) noexcept {
  std::string h = host;
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  sockaddr_in v4{};
  if (inet_pton(AF_INET, h.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    std::memcpy(&out.storage, &v4, sizeof v4);
    out.length = sizeof v4;
    return true;
  }
  sockaddr_in6 v6{};
  if (inet_pton(AF_INET6, h.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    std::memcpy(&out.storage, &v6, sizeof v6);
    out.length = sizeof v6;
    return true;
  }
  return false;
}

}  // namespace

bool is_ip_literal(const std::string &host) noexcept {
  SocketAddress ignored;
  return parse_literal(host, 0, ignored);
}

bool resolve_addresses(const std::string &host, std::uint16_t port, std::vector<SocketAddress> &out,
                       std::string &error) noexcept {
  try {
    out.clear();
    SocketAddress literal;
    if (parse_literal(host, port, literal)) {
      out.push_back(literal);
      return true;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_ADDRCONFIG;
    addrinfo *list = nullptr;
    std::string service = std::to_string(port);
    int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    if (rc != 0) {
      error = std::string("cannot resolve ") + host + ": " + gai_strerror(rc);
      return false;
    }
    for (addrinfo *ai = list; ai != nullptr; ai = ai->ai_next) {
      if (ai->ai_addrlen > sizeof(sockaddr_storage)) continue;
      SocketAddress a;
      std::memcpy(&a.storage, ai->ai_addr, ai->ai_addrlen);
      a.length = ai->ai_addrlen;
      out.push_back(a);
    }
    freeaddrinfo(list);
    if (out.empty()) {
      error = "cannot resolve " + host + ": no addresses";
      return false;
    }
    return true;
  } catch (...) {
    error = "out of memory";
    return false;
  }
}

std::string numeric_host(const SocketAddress &address) {
  char text[INET6_ADDRSTRLEN] = {};
  const void *where = nullptr;
  if (address.storage.ss_family == AF_INET)
    where = &reinterpret_cast<const sockaddr_in *>(&address.storage)->sin_addr;
  else if (address.storage.ss_family == AF_INET6)
    where = &reinterpret_cast<const sockaddr_in6 *>(&address.storage)->sin6_addr;
  if (where == nullptr || inet_ntop(address.storage.ss_family, where, text, sizeof text) == nullptr) return {};
  return text;
}

}  // namespace boltwire::http::conn
