"""tests/http/nginx_server.py: start and stop a private nginx on a free 127.0.0.1 port (tests and bench share it).

    with NginxServer() as server:      # or server = NginxServer().start(); ...; server.stop()
        server.url                     # "http://127.0.0.1:PORT"
        server.payload                 # the 523 bytes that GET / answers

    with NginxServer(tls=True) as server:   # the same server block also listens with TLS 1.3
        server.tls_url                 # "https://127.0.0.1:PORT2": certificate for localhost, 127.0.0.1, ::1
        server.ca_pem, server.ca_file  # the issuing CA (made by trustme at start), as PEM bytes and as a file

    with NginxServer(tls=True, http2=True) as server:   # and a third listener: TLS 1.3 offering h2 by ALPN
        server.h2_url                  # "https://127.0.0.1:PORT3" (the tls_url listener stays HTTP/1.1 only)

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


BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so"  # Debian libnginx-mod-http-brotli-filter
BROTLI_LOCATION = """location = /brotli {
            if ($http_accept_encoding !~* br) { return 406; }
            brotli on;
            brotli_types application/json;
            brotli_min_length 0;
            default_type application/json;
            try_files /payload.json =404;
        }"""


def brotli_module(nginx: str | None) -> str | None:
    """The brotli filter module for `nginx`, or None. Debian builds it for Debian's own nginx only."""
    if nginx is None or not os.path.isfile(BROTLI_MODULE) or os.path.realpath(nginx) != "/usr/sbin/nginx":
        return None
    return BROTLI_MODULE


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

    def __init__(self, workers: int = 1, nginx: str | None = None, tls: bool = False, http2: bool = False) -> None:
        if http2 and not tls:
            raise ValueError("http2=True needs tls=True (the h2 listener shares the TLS certificate)")
        self.workers = workers
        self.binary = nginx or find_nginx()
        self.brotli = False  # set at start: GET /brotli is served (Debian's brotli filter module is installed)
        self.port = 0
        self.tls = tls
        self.tls_port = 0
        self.http2 = http2
        self.h2_port = 0
        self.ca_pem: bytes | None = None
        self.prefix: Path | None = None
        self.process: subprocess.Popen | None = None
        if tls:
            self._issue_certificates()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        return f"https://127.0.0.1:{self.tls_port}"

    @property
    def h2_url(self) -> str:
        return f"https://127.0.0.1:{self.h2_port}"

    @property
    def ca_file(self) -> Path:
        """The CA certificate as a file (for clients that take a path), while the server runs."""
        return self.prefix / "ca.crt"

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

    def worker_pids(self) -> list[int]:
        """The pids of the worker processes (the master's children), [] when not running or not on Linux."""
        if self.process is None:
            return []
        pid = self.process.pid
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                return [int(child) for child in f.read().split()]
        except OSError:
            return []

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
        module = brotli_module(self.binary)
        self.brotli = module is not None  # GET /brotli is served
        substitutions = {"@PREFIX@": str(self.prefix), "@PORT@": str(port), "@WORKERS@": str(self.workers),
                         "@TLS@": self._tls_listener() if self.tls else "",
                         "@BROTLI_MODULE@": f"load_module {module};" if module else "",
                         "@BROTLI_LOCATION@": BROTLI_LOCATION if module else ""}
        for key, value in {**substitutions, **self._more_substitutions()}.items():
            text = text.replace(key, value)
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(text)

    def _more_substitutions(self) -> dict[str, str]:
        """Further @KEY@ -> value pairs for a subclass's template (written after the prefix dir exists)."""
        return {}

    def _issue_certificates(self) -> None:
        """A fresh CA and a certificate it issued for every name of the loopback listeners (never committed)."""
        import trustme  # a test and bench dependency, needed only with TLS

        self._ca = trustme.CA()
        self._leaf = self._ca.issue_cert("localhost", "127.0.0.1", "::1")
        self.ca_pem = self._ca.cert_pem.bytes()

    def _write_private(self, name: str, data: bytes) -> None:
        path = self.prefix / name
        path.write_bytes(data)
        os.chmod(path, 0o600)  # read by the master (our user or root), never by workers

    def _write_certificates(self) -> None:
        """leaf.crt (with its chain), leaf.key and ca.crt into the prefix dir."""
        self._write_private("leaf.crt", b"".join(blob.bytes() for blob in self._leaf.cert_chain_pems))
        self._write_private("leaf.key", self._leaf.private_key_pem.bytes())
        self._write_private("ca.crt", self.ca_pem)

    def _tls_listener(self) -> str:
        """The @TLS@ lines: a TLS 1.3 listener on a second free port, resumption by tickets and a session cache."""
        self._write_certificates()
        self.tls_port = free_port()
        return (
            f"listen 127.0.0.1:{self.tls_port} ssl backlog=4096;\n"
            f"{self._h2_listener() if self.http2 else ''}"
            f"        ssl_certificate {self.prefix}/leaf.crt;\n"
            f"        ssl_certificate_key {self.prefix}/leaf.key;\n"
            "        ssl_protocols TLSv1.3;\n"
            "        ssl_session_cache shared:boltwire_bench:1m;\n"
            "        ssl_session_tickets on;"
        )

    def _h2_listener(self) -> str:
        """A third port whose ALPN offers h2. The `http2` listen parameter (nginx < 1.25.1; later ones accept it
        with a deprecation warning) keeps h2 off the tls_url port, where `http2 on;` would put it too."""
        self.h2_port = free_port()
        return f"        listen 127.0.0.1:{self.h2_port} ssl http2 backlog=4096;\n"

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
