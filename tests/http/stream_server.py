"""tests/http/stream_server.py: uvicorn serving stream_app.py on a free 127.0.0.1 port, in a child process."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


class StreamServer:
    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.url = ""
        self.log = None

    def start(self) -> "StreamServer":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        args = [sys.executable, "-m", "uvicorn", "stream_app:app", "--host", "127.0.0.1", "--port", str(port),
                "--log-level", "warning", "--no-access-log"]
        # uvicorn's log (a traceback per route that fails on purpose, such as /cut) goes to a file: a pipe that
        # nobody reads fills after 64 KiB, and uvicorn then blocks on its next log line, serving nothing.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(args, cwd=HERE, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"uvicorn exited: {self.log.read().decode(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    self.url = f"http://127.0.0.1:{port}"
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("uvicorn did not listen within 20 s")

    def stats(self) -> dict:
        """The app's counters, read with the stdlib (not the client under test)."""
        with urllib.request.urlopen(self.url + "/stats", timeout=5) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.process = None
        self.log.close()
        self.log = None
