"""Both clients against nginx (a server nobody here wrote): bodies of every framing, keep-alive reuse, headers,
status errors, uploads and concurrency, through the session nginx fixture (conftest.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from boltwire import HTTPClient, Struct, SyncHTTPClient
from boltwire.http import HTTPResponseError
from nginx_server import big_body, chunked_body, payload


class User(Struct):
    id: int
    name: str
    email: str
    roles: list[str]


class Doc(Struct):
    status: str
    user: User


def test_sync_client_against_nginx(nginx):
    with SyncHTTPClient(base_url=nginx.url) as client:
        r = client.get("/", response_data_type=Doc)
        assert r.status == 200 and r.data.user.name == "Alice Johnson"
        assert client.get("/").data == payload()
        assert client.get("/big").data == big_body()
        assert client.get("/chunked").data == chunked_body()
        h = client.get("/headers")
        assert h.headers.get_all("x-multi") == ["one", "two"] and h.headers["X-Custom"] == "value"
        assert client.head("/").status == 200
        assert client.get("/status/204").status == 204
        with pytest.raises(HTTPResponseError) as info:
            client.get("/status/404")
        assert info.value.status == 404
        sent = client.post("/sink", content=b"z" * (1 << 20), response_data_type=dict)
        assert sent.data == {"ok": True}
        for _ in range(50):
            assert client.get("/", response_data_type=dict).data["status"] == "success"
        open_, idle = client._stats()
        assert open_ == idle == 1  # one keep-alive connection carried every request


def test_sync_client_shared_by_threads_against_nginx(nginx):
    errors: list[BaseException] = []
    with SyncHTTPClient(base_url=nginx.url) as client:
        def work():
            try:
                for _ in range(100):
                    assert client.get("/", response_data_type=Doc).data.status == "success"
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert client._stats()[0] <= 4
    assert errors == []


def test_async_client_against_nginx(nginx):
    async def main():
        async with HTTPClient(base_url=nginx.url) as client:
            rs = await asyncio.gather(*[client.get("/", response_data_type=Doc) for _ in range(300)])
            assert all(r.data.user.roles == ["admin", "editor"] for r in rs)
            assert (await client.get("/big")).data == big_body()
            assert (await client.get("/chunked")).data == chunked_body()
            h = await client.get("/headers")
            assert h.headers.get_all("X-Multi") == ["one", "two"]
            with pytest.raises(HTTPResponseError) as info:
                await client.get("/status/503")
            assert info.value.status == 503
            posts = await asyncio.gather(*[client.post("/sink", json={"i": i}, response_data_type=dict)
                                           for i in range(50)])
            assert all(p.data == {"ok": True} for p in posts)
            open_, idle = client._stats()
            assert 1 <= open_ <= 100 and open_ == idle

    asyncio.run(asyncio.wait_for(main(), 60))
