"""fuzz/run_fuzz.py: runs each libFuzzer target for a time budget and prints one line per target (make fuzz).

    python fuzz/run_fuzz.py --bin build/fuzz/targets --seconds 60 fuzz_http_response fuzz_chunked ...

Output, exactly one stdout line per target:  fuzz NAME: EXECS execs, CRASHES crashes
A target runs in plain (non-fork) mode over its working corpus (build/fuzz/work/NAME, kept between runs so
fuzzing time accumulates) and its seed corpus (fuzz/corpus/NAME, never written). libFuzzer stops at the first
crash: the input is kept in fuzz/crashes/NAME/ and the target is started again for the rest of its budget, so
CRASHES counts distinct stops. EXECS is the sum of libFuzzer's stat::number_of_executed_units. Logs are in
build/fuzz/work/NAME/log-*.txt. Exit status 1 when any target crashed (or failed to start).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
ROOT = FUZZ_DIR.parent

# Per-target libFuzzer options; a new target gets the defaults unless listed.
PYTHON_TARGETS = {"fuzz_json_untyped", "fuzz_json_typed", "fuzz_json_encode_roundtrip", "fuzz_msgpack", "fuzz_cookie",
                  "fuzz_multipart", "atheris_api"}
# Atheris targets: fuzz/NAME.py run by this interpreter with atheris's ASan runtime preloaded, over the sanitized
# package that the libFuzzer Python targets use (its coverage counters feed atheris's libFuzzer).
ATHERIS_TARGETS = {"atheris_api"}
OPTIONS = {
    "fuzz_http_response": ["-max_len=8192", f"-dict={FUZZ_DIR / 'dicts/http.dict'}"],
    "fuzz_chunked": ["-max_len=4096", f"-dict={FUZZ_DIR / 'dicts/http.dict'}"],
    "fuzz_request_writer": ["-max_len=1024"],
    "fuzz_content_decoder": ["-max_len=65536"],
    "fuzz_sse": ["-max_len=2048", f"-dict={FUZZ_DIR / 'dicts/sse.dict'}"],
    "fuzz_tls_client": ["-max_len=8192"],
    "fuzz_h2_client": ["-max_len=8192"],
    "fuzz_url": ["-max_len=512", f"-dict={FUZZ_DIR / 'dicts/url.dict'}"],
    "fuzz_json_untyped": ["-max_len=12288", f"-dict={FUZZ_DIR / 'dicts/json.dict'}"],
    "fuzz_json_typed": ["-max_len=4096", f"-dict={FUZZ_DIR / 'dicts/json.dict'}"],
    "fuzz_json_encode_roundtrip": ["-max_len=4096"],
    "fuzz_msgpack": ["-max_len=4096"],
    "fuzz_cookie": ["-max_len=4096"],
    "fuzz_multipart": ["-max_len=4096"],
    "atheris_api": ["-max_len=2048"],
}
MAX_RESTARTS = 8  # a target that keeps crashing at once is not started again and again
EXECS = re.compile(r"stat::number_of_executed_units:\s*(\d+)|^Done (\d+) runs", re.MULTILINE)
PROGRESS = re.compile(r"^#(\d+)\s", re.MULTILINE)
ARTIFACT = re.compile(r"Test unit written to (\S+)")


def run_target(binary: Path, name: str, seconds: int) -> tuple[int, int, list[str]]:
    work = ROOT / "build" / "fuzz" / "work" / name
    corpus = work / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    crashes_dir = FUZZ_DIR / "crashes" / name
    crashes_dir.mkdir(parents=True, exist_ok=True)
    seeds = FUZZ_DIR / "corpus" / name
    env = dict(os.environ)
    # Leaks: LSan cannot tell CPython's process-lifetime allocations from leaks, so the Python targets rely on the
    # soak and refcount tests instead. UBSan findings abort (the targets are built with -fno-sanitize-recover).
    leaks = "0" if name in PYTHON_TARGETS else "1"
    env["ASAN_OPTIONS"] = f"detect_leaks={leaks}:allocator_may_return_null=1:handle_abort=1"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    execs = crashes = 0
    kept: list[str] = []
    deadline = time.monotonic() + seconds
    for attempt in range(MAX_RESTARTS + 1):
        left = int(deadline - time.monotonic())
        if left < 1:
            break
        log = work / f"log-{attempt}.txt"
        if name in ATHERIS_TARGETS:
            import atheris  # noqa: PLC0415 (only this target needs it)

            env["LD_PRELOAD"] = str(Path(atheris.path()) / "asan_with_fuzzer.so")
            env["PYTHONMALLOC"] = "malloc"
            env["PYTHONPATH"] = str(binary.parent / "pkg")
            program = [sys.executable, str(FUZZ_DIR / f"{name}.py")]
        else:
            program = [str(binary / name)]
        cmd = [*program, f"-max_total_time={left}", "-print_final_stats=1", "-timeout=25",
               "-rss_limit_mb=4096", f"-artifact_prefix={crashes_dir}/", *OPTIONS.get(name, []), str(corpus)]
        if seeds.is_dir():
            cmd.append(str(seeds))
        with open(log, "w") as out:
            proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
                                  timeout=left + 300)
        text = log.read_text(errors="replace")
        found = EXECS.findall(text)
        if found:
            execs += int(found[-1][0] or found[-1][1])
        else:  # crashed before the final stats: take the last progress line
            progress = PROGRESS.findall(text)
            execs += int(progress[-1]) if progress else 0
        if proc.returncode == 0:
            break
        crashes += 1
        kept += ARTIFACT.findall(text) or [f"(no input kept; see {log})"]
        if not ARTIFACT.findall(text):
            break  # failed to start or died outside an input: restarting would repeat it
    return execs, crashes, kept


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", type=Path, default=ROOT / "build" / "fuzz" / "targets")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args()
    failed = False
    details: list[str] = []
    for name in args.targets:
        execs, crashes, kept = run_target(args.bin, name, args.seconds)
        print(f"fuzz {name}: {execs} execs, {crashes} crashes", flush=True)
        if crashes:
            failed = True
            details += [f"  {name}: {path}" for path in kept]
    if failed:
        print("crashing inputs kept (logs in build/fuzz/work/<target>/):\n" + "\n".join(details), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
