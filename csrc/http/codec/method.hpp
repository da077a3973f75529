// csrc/http/codec/method.hpp: request methods, as far as response framing depends on them (HEAD, CONNECT).
#pragma once
#include <cstdint>
#include <string_view>

#include "http/codec/chars.hpp"

namespace boltwire::http::codec {

// The request method the parser is told about. Only Head (no body, RFC 9112 §6.3 rule 1) and Connect (a 2xx turns
// the connection into a tunnel, rule 2) change how a response is framed; every other method behaves like Get.
enum class Method : std::uint8_t { Get, Head, Post, Put, Delete, Connect, Options, Trace, Patch, Other };

// Methods are case-sensitive (RFC 9110 §9.1): "get" is an extension method, not GET.
constexpr Method classify_method(std::string_view m) noexcept {
  switch (m.size()) {
    case 3:
      if (m == "GET") return Method::Get;
      if (m == "PUT") return Method::Put;
      break;
    case 4:
      if (m == "HEAD") return Method::Head;
      if (m == "POST") return Method::Post;
      break;
    case 5:
      if (m == "TRACE") return Method::Trace;
      if (m == "PATCH") return Method::Patch;
      break;
    case 6:
      if (m == "DELETE") return Method::Delete;
      break;
    case 7:
      if (m == "CONNECT") return Method::Connect;
      if (m == "OPTIONS") return Method::Options;
      break;
    default:
      break;
  }
  return Method::Other;
}

}  // namespace boltwire::http::codec
