"""tests/cpp/test_codec_native.py: builds the native HTTP/1.1 codec and URL tests (tests/cpp, CMake) and runs them.

The build lives in build/native-tests at the repository root and is reused between runs (CMake rebuilds only what
changed). Set BOLTWIRE_NATIVE_SANITIZE=1 to also build and run them with -fsanitize=address,undefined in
build/native-tests-asan.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parent
REPO_ROOT = SOURCE_DIR.parent.parent
BUILD_DIR = REPO_ROOT / "build" / "native-tests"
ASAN_BUILD_DIR = REPO_ROOT / "build" / "native-tests-asan"


def _find_tool(name: str, module: str) -> str | None:
    """The tool next to this interpreter (a venv), on PATH, or from its PyPI wheel (cmake / ninja packages)."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found:
        return found
    try:
        mod = __import__(module)
    except ImportError:
        return None
    bin_dir = getattr(mod, "CMAKE_BIN_DIR", None) or getattr(mod, "BIN_DIR", None)
    if bin_dir and (Path(bin_dir) / name).is_file():
        return str(Path(bin_dir) / name)
    return None


def _run(cmd: list[str], what: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"{what} failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}", pytrace=False)
    return proc


def _cached_source(build_dir: Path) -> str | None:
    cache = build_dir / "CMakeCache.txt"
    if not cache.is_file():
        return None
    for line in cache.read_text(errors="replace").splitlines():
        if line.startswith("CMAKE_HOME_DIRECTORY:"):
            return line.split("=", 1)[1].strip()
    return None


def _build(cmake: str, build_dir: Path, extra: list[str]) -> Path:
    """Configures (once) and builds the test binary; returns its path."""
    cached = _cached_source(build_dir)
    if cached is not None and Path(cached).resolve() != SOURCE_DIR:
        shutil.rmtree(build_dir)  # a stale tree from another checkout
        cached = None
    if cached is None:
        cmd = [cmake, "-S", str(SOURCE_DIR), "-B", str(build_dir), *extra]
        ninja = _find_tool("ninja", "ninja")
        if ninja:
            cmd += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"]
        _run(cmd, "cmake configure")
    _run([cmake, "--build", str(build_dir), "--parallel"], "cmake build")
    return build_dir / "codec_tests"


def _run_binary(binary: Path, what: str) -> str:
    proc = subprocess.run([str(binary)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    output = f"{proc.stdout}\n{proc.stderr}"
    if proc.returncode != 0:
        pytest.fail(f"{what} failed (exit {proc.returncode}):\n{output}", pytrace=False)
    return output


def test_codec_native() -> None:
    cmake = _find_tool("cmake", "cmake")
    if cmake is None:
        pytest.skip("cmake is not installed")
    output = _run_binary(_build(cmake, BUILD_DIR, []), "native codec tests")
    assert " 0 failures" in output, output
    if os.environ.get("BOLTWIRE_NATIVE_SANITIZE") == "1":
        output = _run_binary(_build(cmake, ASAN_BUILD_DIR, ["-DBW_SANITIZE=ON"]), "sanitized native codec tests")
        assert " 0 failures" in output, output
