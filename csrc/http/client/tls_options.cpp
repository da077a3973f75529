// csrc/http/client/tls_options.cpp: the client's TLS options (Python values -> tls::TlsConfig) and its TlsContext,
// built on the first https origin (or at once when the options can be wrong: roots or an identity).
#include "http/client/objects.hpp"

namespace boltwire::http::client {

namespace {

// bytes (or str, as ASCII PEM) -> std::string; false with TypeError.
bool pem_text(PyObject *value, const char *what, std::string &out) {
  if (PyBytes_Check(value)) {
    out.assign(PyBytes_AS_STRING(value), static_cast<std::size_t>(PyBytes_GET_SIZE(value)));
    return true;
  }
  if (PyUnicode_Check(value)) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(value, &size);
    if (text == nullptr) return false;
    out.assign(text, static_cast<std::size_t>(size));
    return true;
  }
  PyErr_Format(PyExc_TypeError, "%s must be PEM bytes, got %.100s", what, Py_TYPE(value)->tp_name);
  return false;
}

bool tls_version(int code, tls::TlsVersion &out) {
  switch (code) {
    case 0: out = tls::TlsVersion::Unset; return true;
    case 12: out = tls::TlsVersion::Tls12; return true;
    case 13: out = tls::TlsVersion::Tls13; return true;
    default: PyErr_Format(PyExc_ValueError, "unknown TLS version code %d", code); return false;
  }
}

}  // namespace

bool parse_tls_options(const TlsOptionArgs &args, tls::TlsConfig &config) {
  try {
    config = tls::TlsConfig{};
    if (args.roots != nullptr && args.roots != Py_None) {
      PyObject *seq = PySequence_Fast(args.roots, "root_certificates must be a list of PEM bytes");
      if (seq == nullptr) return false;
      Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
      for (Py_ssize_t i = 0; i < n; ++i) {
        std::string pem;
        if (!pem_text(PySequence_Fast_GET_ITEM(seq, i), "each root certificate", pem)) {
          Py_DECREF(seq);
          return false;
        }
        config.root_certificates.push_back(std::move(pem));
      }
      Py_DECREF(seq);
    }
    if (args.identity != nullptr && args.identity != Py_None &&
        !pem_text(args.identity, "identity_pem", config.identity_pem))
      return false;
    config.built_in_root_certs = args.built_in_roots != 0;
    config.danger_accept_invalid_certs = args.accept_invalid_certs != 0;
    config.danger_accept_invalid_hostnames = args.accept_invalid_hostnames != 0;
    config.alpn = {"http/1.1"};
    return tls_version(args.min_version, config.min_version) && tls_version(args.max_version, config.max_version);
  } catch (...) {
    PyErr_NoMemory();
    return false;
  }
}

std::shared_ptr<tls::TlsContext> build_tls_context(const tls::TlsConfig &config) {
  std::shared_ptr<tls::TlsContext> context;
  std::string detail;
  tls::TlsConfigError error;
  Py_BEGIN_ALLOW_THREADS  // loading the system trust store reads files
  try {
    context = std::make_shared<tls::TlsContext>();
    error = context->configure(config, detail);
  } catch (...) {
    error = tls::TlsConfigError::Internal;
  }
  Py_END_ALLOW_THREADS
  if (error == tls::TlsConfigError::None) return context;
  try {
    std::string text = "invalid TLS configuration: ";
    text += tls::error_message(error);
    if (!detail.empty()) text.append(": ").append(detail);
    PyErr_SetString(PyExc_ValueError, text.c_str());
  } catch (...) {
    PyErr_NoMemory();
  }
  return nullptr;
}

bool ensure_tls_context(TransportObject *self) {
  if (*self->tls_context) return true;
  std::shared_ptr<tls::TlsContext> context = build_tls_context(*self->tls_config);
  if (!context) return false;
  *self->tls_context = std::move(context);
  return true;
}

}  // namespace boltwire::http::client
