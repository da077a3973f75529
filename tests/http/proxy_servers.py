"""tests/http/proxy_servers.py: real proxies for the proxy tests, each on a free 127.0.0.1 port in a temp dir.

    TinyProxy(user="u", password="p")   Debian tinyproxy: HTTP forward proxy and CONNECT; with credentials it
                                        answers 407 to requests without the right Proxy-Authorization
    MicroSocks(user="u", password="p")  Debian microsocks: SOCKS5 (RFC 1928), username/password auth (RFC 1929)

Both are installed by `make test` (the Makefile's APT_PACKAGES); a missing binary is a failure, not a skip.
`server.url` is the proxy URL with the credentials; `server.bare_url` without them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

from nginx_server import free_port


def _wait_listening(port: int, proc: subprocess.Popen, name: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited at start (code {proc.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} did not start listening on port {port}")


class _Proxy:
    scheme = ""
    binary = ""

    def __init__(self, user: str | None = None, password: str | None = None) -> None:
        self.user, self.password = user, password
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.dir = tempfile.mkdtemp(prefix=f"boltwire-{self.binary}-")

    @property
    def bare_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        if self.user is None:
            return self.bare_url
        return f"{self.scheme}://{self.user}:{self.password}@127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        raise NotImplementedError

    def start(self) -> "_Proxy":
        exe = shutil.which(self.binary)
        if exe is None:
            raise RuntimeError(f"{self.binary} is not installed (make test installs the Debian package)")
        for _ in range(5):  # the free port may be taken between probing and binding: try another
            self.port = free_port()
            self.proc = subprocess.Popen([exe, *self.command()], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         cwd=self.dir)
            try:
                _wait_listening(self.port, self.proc, self.binary)
                return self
            except RuntimeError:
                self.stop()
        raise RuntimeError(f"{self.binary} could not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class TinyProxy(_Proxy):
    scheme = "http"
    binary = "tinyproxy"

    def command(self) -> list[str]:
        conf = os.path.join(self.dir, "tinyproxy.conf")
        lines = [
            f"Port {self.port}",
            "Listen 127.0.0.1",
            "Timeout 30",
            "MaxClients 64",
            "Allow 127.0.0.1",
            "LogLevel Critical",
            f'PidFile "{self.dir}/tinyproxy.pid"',
        ]
        if os.geteuid() == 0:  # tinyproxy drops root; the temp dir must stay readable for that user
            lines += ["User nobody", "Group nogroup"]
            os.chmod(self.dir, 0o777)
        if self.user is not None:
            lines.append(f"BasicAuth {self.user} {self.password}")
        with open(conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        os.chmod(conf, 0o644)
        return ["-d", "-c", conf]


class MicroSocks(_Proxy):
    scheme = "socks5"
    binary = "microsocks"

    def command(self) -> list[str]:
        args = ["-i", "127.0.0.1", "-p", str(self.port)]
        if self.user is not None:
            args += ["-u", self.user, "-P", self.password]
        return args
