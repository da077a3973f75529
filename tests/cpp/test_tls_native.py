"""tests/cpp/test_tls_native.py: the native TLS layer tests (tests/cpp/tls) with certificates made here by trustme.

The binary runs a client TlsSession against an in-process OpenSSL server over memory buffers; this file makes the
PEMs it needs (CA, leaves for localhost / 127.0.0.1 / ::1, expired and not-yet-valid leaves, the CA served as a
self-signed leaf, client identities from the CA and from an unrelated CA) and passes their directory.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import trustme

from native_build import build_dirs, run_binary


def write_certificates(directory: Path) -> None:
    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)
    ca, other_ca = trustme.CA(), trustme.CA()
    leaves = {
        "leaf.pem": ca.issue_cert("localhost", "127.0.0.1", "::1"),
        "expired.pem": ca.issue_cert("localhost", not_before=now - 10 * day, not_after=now - day),
        "not_yet_valid.pem": ca.issue_cert("localhost", not_before=now + day, not_after=now + 10 * day),
        "client.pem": ca.issue_cert("client.example"),
        "other_client.pem": other_ca.issue_cert("client.example"),
    }
    for name, leaf in leaves.items():
        (directory / name).write_bytes(leaf.private_key_and_cert_chain_pem.bytes())
    (directory / "ca.pem").write_bytes(ca.cert_pem.bytes())
    (directory / "other_ca.pem").write_bytes(other_ca.cert_pem.bytes())
    (directory / "self_signed.pem").write_bytes(ca.private_key_pem.bytes() + ca.cert_pem.bytes())


def test_tls_native(tmp_path: Path) -> None:
    write_certificates(tmp_path)
    for build_dir in build_dirs():
        output = run_binary(build_dir / "tls_tests", f"native TLS tests ({build_dir.name})", str(tmp_path))
        assert " 0 failures" in output, output
