// csrc/json/format.hpp: boltwire.json.format(buf, *, indent=2): re-layout an existing JSON document.
#pragma once
#include "py/python.hpp"

namespace boltwire::json {

// {"json_format", sentinel}: registered on boltwire._core, re-exported as boltwire.json.format.
extern PyMethodDef format_function_defs[];

}  // namespace boltwire::json
