"""tests/cpp/test_h2_native.py: the native HTTP/2 session tests (tests/cpp/h2): the client h2::Session against an
nghttp2 server session over memory buffers."""

from __future__ import annotations

from native_build import build_dirs, run_binary


def test_h2_native() -> None:
    for build_dir in build_dirs():
        output = run_binary(build_dir / "h2_tests", f"native HTTP/2 tests ({build_dir.name})")
        assert " 0 failures" in output, output
