// fuzz/python_harness.cpp: CPython start-up and the check call shared by the Python-embedding fuzz targets.
#include "python_harness.hpp"

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdio>
#include <cstdlib>

namespace bwfuzz {
namespace {

PyObject *check_function = nullptr;

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "fuzz harness: %s\n", what);
  if (PyErr_Occurred()) PyErr_Print();
  std::abort();
}

void check_status(PyStatus status, const char *what) {
  if (PyStatus_Exception(status)) {
    std::fprintf(stderr, "fuzz harness: %s: %s\n", what, status.err_msg ? status.err_msg : "?");
    std::abort();
  }
}

void prepend_path(PyObject *sys_path, const char *dir) {
  PyObject *entry = PyUnicode_FromString(dir);
  if (entry == nullptr || PyList_Insert(sys_path, 0, entry) < 0) die("cannot extend sys.path");
  Py_DECREF(entry);
}

}  // namespace

void start_python(const char *module, const char *function) {
  PyPreConfig pre;
  PyPreConfig_InitIsolatedConfig(&pre);
  pre.allocator = PYMEM_ALLOCATOR_MALLOC;
  check_status(Py_PreInitialize(&pre), "Py_PreInitialize");
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.install_signal_handlers = 0;
  config.site_import = 0;
  check_status(Py_InitializeFromConfig(&config), "Py_InitializeFromConfig");
  PyConfig_Clear(&config);

  PyObject *sys_path = PySys_GetObject("path");  // borrowed
  if (sys_path == nullptr) die("no sys.path");
  const char *pkg = std::getenv("BW_FUZZ_PKG_DIR");
  const char *py = std::getenv("BW_FUZZ_PY_DIR");
  prepend_path(sys_path, py != nullptr ? py : BW_FUZZ_PY_DIR);
  prepend_path(sys_path, pkg != nullptr ? pkg : BW_FUZZ_PKG_DIR);
  PyObject *mod = PyImport_ImportModule(module);
  if (mod == nullptr) die("cannot import the check module");
  check_function = PyObject_GetAttrString(mod, function);
  Py_DECREF(mod);
  if (check_function == nullptr) die("no such check function");
  // Loud when the package is the wrong build: the fuzzer would find nothing in an uninstrumented _core.
  PyObject *core = PyImport_ImportModule("boltwire._core");
  if (core == nullptr) die("cannot import boltwire._core");
  PyObject *file = PyObject_GetAttrString(core, "__file__");
  if (file != nullptr) std::fprintf(stderr, "fuzz harness: boltwire._core from %s\n", PyUnicode_AsUTF8(file));
  Py_XDECREF(file);
  Py_DECREF(core);
  PyErr_Clear();
}

void run_check(const std::uint8_t *data, std::size_t size) {
  PyObject *arg = PyBytes_FromStringAndSize(reinterpret_cast<const char *>(data), static_cast<Py_ssize_t>(size));
  if (arg == nullptr) die("cannot make bytes");
  PyObject *result = PyObject_CallOneArg(check_function, arg);
  Py_DECREF(arg);
  if (result == nullptr) die("the check raised (a finding)");
  Py_DECREF(result);
}

}  // namespace bwfuzz
