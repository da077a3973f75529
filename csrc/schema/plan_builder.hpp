// csrc/schema/plan_builder.hpp: annotation -> TypePlan, built once and cached.
#pragma once
#include "py/python.hpp"
#include "schema/type_plan.hpp"

namespace boltwire::schema {

// The plan for `annotation`, built on first use and cached for the life of the process (for a class, for the
// life of the class). Borrowed; nullptr with TypeError set when the annotation is not supported.
const TypePlan *plan_for(PyObject *annotation);

}  // namespace boltwire::schema
