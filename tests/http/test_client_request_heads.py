"""Request heads come from the codec's request writer (_http_head): what it refuses never reaches the wire, and
what it writes is exactly what the server reads (checked through /echo)."""

from __future__ import annotations

import pytest

from _local_server import LocalServer
from boltwire import SyncHTTPClient, _core


@pytest.fixture(scope="module")
def server():
    with LocalServer() as s:
        yield s


def test_head_bytes():
    head = _core._http_head("POST", "/a?b=1", "example.com:8080", [("X-A", "1"), (b"X-B", b"\xff")], 3)
    assert head == (b"POST /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nX-A: 1\r\nX-B: \xff\r\n"
                    b"Content-Length: 3\r\n\r\n")
    assert _core._http_head("GET", "/", "h", [], None) == b"GET / HTTP/1.1\r\nHost: h\r\n\r\n"


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([("X-A", "a\r\nX-Injected: 1")], "invalid header X-A: CR or LF"),
        ([("X-A", "a\x00b")], "invalid header X-A: NUL"),
        ([("X-A", "a\x07b")], "invalid header X-A: control character"),
        ([("Bad Name", "v")], "invalid header Bad Name"),
        ([("", "v")], "header name is empty"),
        ([("Host", "evil")], "'Host' is set by the client itself"),
        ([("content-length", "5")], "'content-length' is set by the client itself"),
        ([("Transfer-Encoding", "chunked")], "'Transfer-Encoding' is set by the client itself"),
    ],
)
def test_refused_headers_never_reach_the_wire(server, headers, message):
    before = len(server.log)
    with SyncHTTPClient(base_url=server.url) as client:
        with pytest.raises(ValueError, match=message):
            client.get("/echo", headers=headers)
        with pytest.raises(ValueError, match=message):
            SyncHTTPClient(default_headers=dict(headers))
    assert len(server.log) == before


def test_refused_methods_and_types(server):
    with SyncHTTPClient(base_url=server.url) as client:
        with pytest.raises(ValueError, match="invalid method"):
            client.request("GE T", "/echo")
        with pytest.raises(TypeError, match="header value must be str or bytes"):
            client.get("/echo", headers={"X-A": 1})


def test_what_is_written_is_what_arrives(server):
    with SyncHTTPClient(base_url=server.url, default_headers={"X-Default": "d"}) as client:
        r = client.post("/echo", headers={"x-default": "override", "X-Bytes": b"raw"}, json={"k": 1},
                        response_data_type=dict)
    headers = dict((k.lower(), v) for k, v in r.data["headers"])
    assert headers["x-default"] == "override"  # a call's header replaces the client's, whatever the case
    assert headers["x-bytes"] == "raw"
    assert headers["content-type"] == "application/json"
    assert headers["content-length"] == str(len(r.data["body"]))
    assert [k.lower() for k, _ in r.data["headers"]].count("x-default") == 1
