"""tests/cpp/test_encoding_native.py: the native content decoder tests (tests/cpp/encoding): every stream fed whole
and split at every offset gives the same verdict and bytes (including the frames fuzz_content_decoder found)."""

from __future__ import annotations

from native_build import build_dirs, run_binary


def test_encoding_native() -> None:
    for build_dir in build_dirs():
        output = run_binary(build_dir / "encoding_tests", f"native content decoder tests ({build_dir.name})")
        assert " 0 failures" in output, output
