"""tests/http/conftest.py: session fixtures for the HTTP tests: private nginx servers (plain, TLS), the fault server
and the proxies (tinyproxy, microsocks); `sigint_raises` for the Ctrl-C tests."""

from __future__ import annotations

import signal

import pytest
from _script_server import ScriptServer
from fault_server import FaultServer
from nginx_server import NginxServer
from nginx_tls_server import NginxTlsServer
from proxy_servers import MicroSocks, TinyProxy


@pytest.fixture(scope="session")
def nginx():
    """nginx on a free 127.0.0.1 port for the whole session (config: tests/http/nginx/nginx.conf.template).

    A missing nginx is a failure, not a skip: `make test` installs it (Debian package nginx)."""
    server = NginxServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def nginx_tls():
    """nginx with TLS listeners (tests/http/nginx_tls_server.py; certificates made by trustme) for the session."""
    server = NginxTlsServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def fault_server():
    """The asyncio raw-socket fault server (tests/http/fault_server.py) in its own thread, for the session."""
    server = FaultServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def stream_server():
    """uvicorn serving tests/http/stream_app.py (streaming, uploads, SSE) in its own process, for the session."""
    from stream_server import StreamServer

    server = StreamServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def tinyproxy():
    """tinyproxy (HTTP proxy and CONNECT) requiring Basic credentials (tests/http/proxy_servers.py)."""
    server = TinyProxy(user="proxyuser", password="proxypass").start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def microsocks():
    """microsocks (SOCKS5) without authentication."""
    server = MicroSocks().start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def microsocks_auth():
    """microsocks (SOCKS5) requiring username/password (RFC 1929)."""
    server = MicroSocks(user="sockuser", password="sockpass").start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def script_server():
    """The scripted server (tests/http/_script_server.py) for the session; use `scripted` for a reset one."""
    server = ScriptServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def scripted(script_server):
    """The session's scripted server with no scripts and no recorded requests."""
    script_server.reset()
    return script_server


@pytest.fixture
def sigint_raises():
    """SIGINT raises KeyboardInterrupt for the test, whatever the runner left: a process started in the background by
    a non-interactive shell inherits SIGINT ignored, and Python then installs no handler (the Ctrl-C tests failed
    that way, the signal lost and the request left to the server's 10 s hang)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
