"""tests/cpp/test_codec_native.py: builds the native HTTP/1.1 codec and URL tests (tests/cpp, CMake) and runs them.

Set BOLTWIRE_NATIVE_SANITIZE=1 to also build and run them with -fsanitize=address,undefined (native_build.py).
"""

from __future__ import annotations

from native_build import build_dirs, run_binary


def test_codec_native() -> None:
    for build_dir in build_dirs():
        output = run_binary(build_dir / "codec_tests", f"native codec tests ({build_dir.name})")
        assert " 0 failures" in output, output
