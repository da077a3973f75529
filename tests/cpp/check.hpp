// tests/cpp/check.hpp: a tiny assertion helper for the native codec tests (no framework).
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace bwtest {

struct Counters {
  int checks = 0;
  int failures = 0;
};
inline Counters counters;

// Prints a failure with its location; returns the condition so callers can stop early.
inline bool check(bool ok, const char *expr, const char *file, int line) {
  ++counters.checks;
  if (!ok) {
    ++counters.failures;
    std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
  }
  return ok;
}

inline bool check_eq(std::string_view got, std::string_view want, const char *expr, const char *file, int line) {
  ++counters.checks;
  if (got != want) {
    ++counters.failures;
    std::fprintf(stderr, "%s:%d: %s\n  want: %.*s\n  got:  %.*s\n", file, line, expr, static_cast<int>(want.size()),
                 want.data(), static_cast<int>(got.size()), got.data());
    return false;
  }
  return true;
}

// Printable form of raw bytes: \r \n \t \0 and \xHH for other non-printables, \" and \\ escaped.
inline std::string escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '\r': out += "\\r"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\0': out += "\\0"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7F) {
          char buf[5];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

}  // namespace bwtest

#define BW_CHECK(cond) ::bwtest::check(static_cast<bool>(cond), #cond, __FILE__, __LINE__)
#define BW_CHECK_EQ(got, want) ::bwtest::check_eq((got), (want), #got " == " #want, __FILE__, __LINE__)

// Test suites register nothing globally: main.cpp calls each run_* function.
void run_response_table_tests();
void run_response_api_tests();
void run_writer_tests();
void run_url_tests();
void run_proxy_tunnel_tests();
