"""bench/machine.py: the facts about the machine and the software a run measured, for the header and the JSON.

Numbers from two runs can only be compared with these beside them: CPU model and cores, memory, load average,
the Pythons (the main venv's and the lothc venv's), every measured library's version, nginx and wrk.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys

# Reported in the header and the JSON so that numbers can be compared across runs.
PACKAGES = ["boltwire", "msgspec", "structtype", "pydantic", "attrs", "orjson"]
PACKAGES += ["pyreqwest", "wreq", "aiohttp", "httpx", "httpx2", "niquests", "aiosonic", "requests", "uvloop"]


def facts(lothc_python: str | None) -> dict[str, str]:
    env = {
        "CPU": cpu_model(),
        "cores": str(os.cpu_count()),
        "memory": memory(),
        "load average": ", ".join(f"{x:.2f}" for x in os.getloadavg()),
        "Python": f"{platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
    }
    for package in PACKAGES:
        env[package] = version(package)
    env["lothc"] = lothc_version(lothc_python)
    env["nginx"] = tool_version(["nginx", "-v"], r"nginx/(\S+)")
    env["wrk"] = tool_version(["wrk", "-v"], r"wrk (\S+)")
    return env


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory() -> str:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def lothc_version(python: str | None) -> str:
    if python is None:
        return "not installed"
    code = "import importlib.metadata as m, platform; print(m.version('lothc'), 'on Python', platform.python_version())"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"
    return out.stdout.strip() or "not installed"


def tool_version(cmd: list[str], pattern: str) -> str:
    binary = shutil.which(cmd[0]) or next(
        (p for p in (f"/usr/sbin/{cmd[0]}", f"/usr/local/sbin/{cmd[0]}") if os.access(p, os.X_OK)), None
    )
    if binary is None:
        return "not installed"
    try:
        out = subprocess.run([binary, *cmd[1:]], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    m = re.search(pattern, out.stdout + out.stderr)
    return m.group(1) if m else "unknown"
