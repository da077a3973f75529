"""bench/c_programs.py: the bench's reference programs in C (bench/*.c), built on first use into build/bench."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def compiled(source_name: str, flags: tuple[str, ...] = (), libraries: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """bench/`source_name` built into build/bench (again when the source is newer) with the compiler `flags`, linked
    with `libraries` ("-lcrypto"): (its path, "") or (None, why not)."""
    source = HERE / source_name
    binary = HERE.parent / "build" / "bench" / source.stem
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return str(binary), ""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler"
    binary.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([compiler, "-O2", *flags, "-o", str(binary), str(source), *libraries], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, f"build failed: {proc.stderr.strip()[-120:]}"
    return str(binary), ""
