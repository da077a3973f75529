"""tools/msgspec_suite/run.py: msgspec's own unit tests run against boltwire through an import alias, compared
with msgspec's results on the same tests.

Usage: .venv/bin/python tools/msgspec_suite/run.py [--baseline] [--list FILE] [-- pytest args]

Downloads the sdist of the installed msgspec version from PyPI (`pip download`, needs network; kept in
build/msgspec_suite), unpacks its tests/unit, puts alias_conftest.py beside it as conftest.py, runs the suite
against msgspec once (the baseline, cached in real.xml; --baseline reruns it) and then against boltwire, and prints
the tests that msgspec passes and boltwire fails, grouped by file and by first line of the message.
"""
import argparse
import collections
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# Modules that test msgspec's own tooling (C lint, perf, internal utils) rather than its behaviour.
IGNORED = ("test_performance.py", "test_cpylint.py", "test_utils.py")


def fetch(work: Path, version: str) -> Path:
    """The sdist's tests/unit, unpacked into work/unit (downloaded once)."""
    unit = work / "unit"
    stamp = work / f"unit-{version}.stamp"
    if stamp.exists():
        return unit
    sdist = work / f"msgspec-{version}.tar.gz"
    if not sdist.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        "-d", str(work), f"msgspec=={version}"], check=True)
    shutil.rmtree(unit, ignore_errors=True)
    prefix = f"msgspec-{version}/tests/unit/"
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix) and (m.isfile() or m.isdir())]
        for m in members:
            m.name = "unit/" + m.name[len(prefix):]
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(work, members=members, **kwargs)
    stamp.touch()
    return unit


def run_suite(work: Path, out: str, real: bool, extra: list[str]) -> None:
    env = dict(os.environ, MSGSPEC_REAL="1" if real else "0")
    cmd = [sys.executable, "-m", "pytest", "unit", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-rN",
           f"--junitxml={out}"] + [f"--ignore=unit/{name}" for name in IGNORED] + extra
    proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
    tail = proc.stdout.strip().splitlines()[-1:] or proc.stderr.strip().splitlines()[-3:]
    print(("msgspec: " if real else "boltwire: ") + " | ".join(tail))


def load(path: Path) -> dict[str, tuple[str, str]]:
    out = {}
    for tc in ET.parse(path).getroot().iter("testcase"):
        status, msg = "pass", ""
        for child in tc:
            if child.tag in ("failure", "error"):
                status, msg = "fail", child.get("message") or ""
            elif child.tag == "skipped":
                status = "skip"
        classname = tc.get("classname")
        classname = classname[classname.find("unit."):]  # the same ids whatever the work directory
        out[classname + "::" + tc.get("name")] = (status, msg)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", action="store_true", help="rerun the suite against msgspec itself")
    ap.add_argument("--list", metavar="FILE", help="write every failing test id and message to FILE")
    ap.add_argument("--work", default=str(REPO / "build" / "msgspec_suite"))
    ap.add_argument("--top", type=int, default=40, help="message groups to print")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()
    version = importlib.metadata.version("msgspec")
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    fetch(work, version)
    shutil.copyfile(HERE / "alias_conftest.py", work / "conftest.py")
    (work / "pytest.ini").write_text("[pytest]\n")  # the rootdir: no settings from the repository's pyproject
    if args.baseline or not (work / "real.xml").exists():
        run_suite(work, "real.xml", True, args.pytest_args)
    run_suite(work, "boltwire.xml", False, args.pytest_args)
    real, ours = load(work / "real.xml"), load(work / "boltwire.xml")
    fails = {k: v[1] for k, v in ours.items() if v[0] == "fail" and real.get(k, ("",))[0] == "pass"}
    passed = sum(1 for k, v in real.items() if v[0] == "pass" and k in ours)
    print(f"msgspec {version}: {passed} tests pass on msgspec; boltwire fails {len(fails)} of them")
    for name, count in collections.Counter(k.split("::")[0] for k in fails).most_common():
        print(f"  {count:4d} {name}")
    groups = collections.Counter(re.sub(r"0x[0-9a-f]+|\d+", "N", m.split("\n")[0])[:120] for m in fails.values())
    for msg, count in groups.most_common(args.top):
        print(f"  {count:4d} {msg}")
    if args.list:
        Path(args.list).write_text("".join(f"{k}\n    {m.splitlines()[0] if m else ''}\n"
                                           for k, m in sorted(fails.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
