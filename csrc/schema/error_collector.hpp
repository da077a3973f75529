// csrc/schema/error_collector.hpp: collect_errors=True: the validation errors of one decode or convert call,
// gathered in input order and raised together as one ValidationError.
//
// Overview: the entry point starts the walk at a collect root (collect_root(c)), so every PathNode chain of
// the call ends there. A raiser (error_path.hpp) that finds the root records the error in compact form (type,
// message, input, a copy of the path) and raises a shared placeholder ValidationError, so the readers' control
// flow stays that of fail-fast mode: catch sites that clear a ValidationError (a tagged union's fallback) work
// unchanged. The container reading a value that failed calls collect_failure() / collect_pending(), which take
// the placeholder (the record stays) or, for a ValidationError raised elsewhere (user code), keep its text and
// details; the container then steps over the value and goes on. A value whose own errors were collected
// returns nullptr with no exception set ("failed, already recorded"). finish_collect() ends the call: it
// renders every record once (messages, `loc` tuples) and raises one ValidationError.
//
// Invariants: the last record is `tentative` from its raise until a container takes its placeholder; a
// tentative record whose placeholder was cleared instead (by a catch site) is dropped at the next raise or
// take, as a newer exception replaces an older one. Records own their references; paths live in `pieces`.
#pragma once
#include "py/python.hpp"
#include "schema/error_path.hpp"
#include <cstdint>
#include <vector>

namespace boltwire::schema {

struct ErrorRecord {
  PyObject *message = nullptr;  // the error's msg, no path suffix (owned)
  PyObject *input = nullptr;    // the offending value or its type name (owned), nullptr for None
  PyObject *line = nullptr;     // kept exceptions only: their whole str() (owned), or nullptr
  PyObject *detail = nullptr;   // kept exceptions only: their (type, loc, msg, input) tuple (owned)
  uint32_t loc_begin = 0, loc_size = 0;  // the path: pieces[loc_begin, loc_begin + loc_size), root first
  ErrorType type = ErrorType::kInvalidValue;
};

struct ErrorCollector {
  Py_ssize_t max_errors = 100;
  std::vector<ErrorRecord> records;
  std::vector<PathNode> pieces;  // every record's path; keys owned
  bool tentative = false;        // the last record's placeholder is still pending (see Invariants)
  // Messages made once per call: (plan, got) -> "Expected `...`, got `...`"; type names as str.
  struct CachedMessage {
    const TypePlan *plan;
    const char *got;
    PyObject *message;
  };
  std::vector<CachedMessage> messages;
  std::vector<std::pair<const char *, PyObject *>> type_names;

  ErrorCollector() = default;
  ErrorCollector(const ErrorCollector &) = delete;
  ErrorCollector &operator=(const ErrorCollector &) = delete;
  ~ErrorCollector();
  Py_ssize_t count() const noexcept { return static_cast<Py_ssize_t>(records.size()); }
  bool full() const noexcept { return count() >= max_errors; }
};

// The root node a collect-mode call starts its walk at.
inline PathNode collect_root(ErrorCollector &c) noexcept {
  PathNode root{nullptr, nullptr, PathNode::kCollectRoot};
  root.collector = &c;
  return root;
}

// Records an error raised at `path` (whose root is `c`'s) and raises the placeholder. Returns nullptr.
[[gnu::cold]] PyObject *record_error(ErrorCollector &c, ErrorType type, ErrorInput input, const PathNode *path,
                                     PyObject *message);
// The message cached for (plan, got) (borrowed), or nullptr; cache_message stores one (false: error set).
PyObject *cached_message(const ErrorCollector &c, const TypePlan *plan, const char *got) noexcept;
bool cache_message(ErrorCollector &c, const TypePlan *plan, const char *got, PyObject *message);

// Takes the pending ValidationError into `c` and clears it (true). False, the exception left pending, when
// it is another exception or recording fails.
[[gnu::cold]] bool collect_pending(ErrorCollector &c);

// A value that failed inside a container in collect mode: true when the walk may go on past it. A pending
// ValidationError is taken first (`consumed` is then set to false: the caller must step over the value);
// nullptr without an exception means the value's errors are in `c` already and the value was read whole.
// False when another exception is pending or max_errors is reached (no exception set then).
[[gnu::cold]] bool collect_failure(ErrorCollector &c, bool &consumed);

// The end of a collect-mode call that produced `result` (nullptr on failure): returns `result` when nothing
// was collected; otherwise raises one ValidationError with every collected error (a malformed-input
// DecodeError still pending joins them as the last one, type `malformed`) and returns nullptr. Steals `result`.
PyObject *finish_collect(ErrorCollector &c, PyObject *result);

// Parses collect_errors= / max_errors= values. False with TypeError / ValueError set.
bool parse_collect_options(PyObject *collect_errors, PyObject *max_errors, bool &collect, Py_ssize_t &max);

}  // namespace boltwire::schema
