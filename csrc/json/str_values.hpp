// csrc/json/str_values.hpp: values carried in JSON strings: RFC 3339 datetimes, ISO 8601 durations, UUIDs,
// base64 bytes, decimals, enum / literal lookups, and (lax mode) numbers and booleans written as strings.
#pragma once
#include "py/python.hpp"
#include "schema/error_path.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::json {

// Converts the str `text` to the str-like kind `plan` accepts. Raises ValidationError (with `path`) when the
// text is not a valid value of that kind, or "Expected `...`, got `str`" when no kind of the plan reads
// strings. Returns a new reference or nullptr. Constraints of the plan are checked.
PyObject *value_from_str(PyObject *text, const schema::TypePlan *plan, bool strict, const schema::PathNode *path);

// A lax number (Unix timestamp) as a UTC datetime, with the plan's tz constraint checked; nullptr with an
// error set on failure.
PyObject *datetime_from_timestamp(double seconds, const schema::TypePlan *plan, const schema::PathNode *path);
PyObject *timedelta_from_seconds(double seconds, const schema::PathNode *path);

// "nan" / "inf" / "infinity" in any case, after an optional '-' (or '+' when `plus`): true and `d` set.
bool nonfinite_from_text(const char *p, const char *end, bool plus, double &d) noexcept;

}  // namespace boltwire::json
