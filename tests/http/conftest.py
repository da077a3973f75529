"""tests/http/conftest.py: session fixtures for the HTTP tests: private nginx servers (plain, TLS) and the fault server."""

from __future__ import annotations

import pytest
from fault_server import FaultServer
from nginx_server import NginxServer
from nginx_tls_server import NginxTlsServer


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
