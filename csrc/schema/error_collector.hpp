// csrc/schema/error_collector.hpp: collect_errors=True: the ValidationErrors of one decode or convert call,
// gathered in input order and raised together as one ValidationError.
//
// Overview: readers raise every error as usual (error_path.hpp). In collect mode, the container reading a
// value that failed hands the pending ValidationError to collect_pending(), which keeps its details and clears
// it; the container then steps over the value and goes on. A value whose own errors were collected returns
// nullptr with no exception set ("failed, already recorded"), so each error is kept exactly once. The entry
// point ends with finish_collect(), which raises one ValidationError carrying every detail.
#pragma once
#include "py/python.hpp"

namespace boltwire::schema {

struct ErrorCollector {
  Py_ssize_t max_errors = 100;
  PyObject *details = nullptr;   // list of (type, loc, msg, input) tuples
  PyObject *messages = nullptr;  // list of each error's str()
  ErrorCollector() = default;
  ErrorCollector(const ErrorCollector &) = delete;
  ErrorCollector &operator=(const ErrorCollector &) = delete;
  ~ErrorCollector() {
    Py_XDECREF(details);
    Py_XDECREF(messages);
  }
  Py_ssize_t count() const noexcept { return details == nullptr ? 0 : PyList_GET_SIZE(details); }
  bool full() const noexcept { return count() >= max_errors; }
};

// Moves the pending ValidationError's details into `c` and clears it (true). False, the exception left
// pending, when it is another exception or recording fails.
[[gnu::cold]] bool collect_pending(ErrorCollector &c);

// A value that failed inside a container in collect mode: true when the walk may go on past it. A pending
// ValidationError is collected first (`consumed` is then set to false: the caller must step over the value);
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
