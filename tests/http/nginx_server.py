"""tests/http/nginx_server.py: start and stop a private nginx on a free 127.0.0.1 port (tests and bench share it).

    with NginxServer() as server:      # or server = NginxServer().start(); ...; server.stop()
        server.url                     # "http://127.0.0.1:PORT"
        server.payload                 # the 523 bytes that GET / answers

The config is nginx/nginx.conf.template beside this file. Everything nginx writes (pid, logs, temp dirs) and the
files it serves live in a fresh temp dir, so no root-only path is touched; the dir is removed on stop. nginx runs
in the foreground (`daemon off`) as our child, so stopping it never needs the pid file.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "nginx" / "nginx.conf.template"
PAYLOAD_FILE = HERE / "nginx" / "payload.json"
BIG_SIZE = 1 << 20  # /big, /slow
CHUNKED_SIZE = 64 << 10  # /chunked
# Debian installs nginx in /usr/sbin, which is not on a normal user's PATH.
CANDIDATES = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx", "/usr/bin/nginx"]


class NginxError(RuntimeError):
    pass


def find_nginx() -> str | None:
    """Path of the nginx binary: $NGINX, then PATH, then the usual sbin dirs; None when there is none."""
    env = os.environ.get("NGINX")
    if env:
        return env if os.access(env, os.X_OK) else None
    found = shutil.which("nginx")
    if found:
        return found
    return next((p for p in CANDIDATES if os.access(p, os.X_OK)), None)


def payload() -> bytes:
    return PAYLOAD_FILE.read_bytes()


def big_body() -> bytes:
    """The bytes of /big (and /slow): each 4-byte word is its own index, so a misplaced chunk shows."""
    return b"".join(i.to_bytes(4, "big") for i in range(BIG_SIZE // 4))


def chunked_body() -> bytes:
    line = b"0123456789abcdef" * 4 + b"\n"  # 65 bytes
    return (line * (CHUNKED_SIZE // len(line) + 1))[:CHUNKED_SIZE]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NginxServer:
    template = TEMPLATE

    def __init__(self, workers: int = 1, nginx: str | None = None) -> None:
        self.workers = workers
        self.binary = nginx or find_nginx()
        self.port = 0
        self.prefix: Path | None = None
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def payload(self) -> bytes:
        return payload()

    def start(self, timeout: float = 10.0) -> NginxServer:
        if self.binary is None:
            raise NginxError(
                "nginx not found (looked at $NGINX, PATH and " + ", ".join(CANDIDATES) + "); `make test` installs it"
            )
        last = ""
        for _ in range(3):  # the free port can be taken between probing and nginx's bind: try another
            self._prepare(free_port())
            self.process = subprocess.Popen(
                [self.binary, "-p", str(self.prefix), "-e", str(self.prefix / "error.log"), "-c", str(self.conf)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            if self._wait_ready(timeout):
                return self
            last = self._error_text()
            self.stop()
        raise NginxError(f"nginx did not start: {last}")

    def stop(self) -> None:
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # fast shutdown of master and workers
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        if proc is not None and proc.stderr:
            proc.stderr.close()
        if self.prefix is not None:
            shutil.rmtree(self.prefix, ignore_errors=True)
            self.prefix = None

    def __enter__(self) -> NginxServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def error_log(self) -> str:
        try:
            return (self.prefix / "error.log").read_text(errors="replace") if self.prefix else ""
        except OSError:
            return ""

    # -- internals

    def _prepare(self, port: int) -> None:
        self.port = port
        self.prefix = Path(tempfile.mkdtemp(prefix="boltwire-nginx-"))
        # Worker processes of a root-started nginx run as `nobody`: let them read the served files.
        os.chmod(self.prefix, 0o755)
        www = self.prefix / "www"
        www.mkdir(mode=0o755)
        (www / "payload.json").write_bytes(payload())
        (www / "big.bin").write_bytes(big_body())
        (www / "chunked.bin").write_bytes(chunked_body())
        for f in www.iterdir():
            os.chmod(f, 0o644)
        text = self.template.read_text()
        substitutions = {"@PREFIX@": str(self.prefix), "@PORT@": str(port), "@WORKERS@": str(self.workers)}
        for key, value in {**substitutions, **self._more_substitutions()}.items():
            text = text.replace(key, value)
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(text)

    def _more_substitutions(self) -> dict[str, str]:
        """Further @KEY@ -> value pairs for a subclass's template (written after the prefix dir exists)."""
        return {}

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                conn = self._connection()
                conn.request("GET", "/")
                ok = conn.getresponse().read() == payload()
                conn.close()
                if ok:
                    return True
            except OSError:
                pass
            time.sleep(0.02)
        return False

    def _error_text(self) -> str:
        err = b""
        if self.process is not None and self.process.poll() is not None and self.process.stderr:
            err = self.process.stderr.read() or b""
        return (err.decode(errors="replace") + self.error_log()).strip()[-500:]


if __name__ == "__main__":  # manual use: python tests/http/nginx_server.py
    with NginxServer() as server:
        print(f"nginx on {server.url}; Ctrl-C stops it", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
