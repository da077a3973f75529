"""tests/http/test_client_auth.py: bearer_token, bearer_auth providers (sync, async, invalidated after a 401),
basic_auth with a None password, Digest (RFC 7616, checked by the server), skip_auth, and OAuth client credentials
(one token fetch for 100 concurrent requests)."""

from __future__ import annotations

import asyncio
import base64
import threading

import pytest
from _script_server import PASSWORD, USER, ScriptServer

from boltwire.http import (
    HTTPClient,
    HTTPResponseError,
    OAuthProvider,
    OAuthTokenError,
    SyncHTTPClient,
    SyncOAuthProvider,
)

JSON = [("Content-Type", "application/json")]
OK = (200, JSON, b'{"ok":true}')
DENIED = (401, JSON, b'{"error":"invalid_token"}')


@pytest.fixture()
def srv():
    s = ScriptServer()
    yield s
    s.close()


def auth_of(srv, path):
    return [r.headers.get("authorization") for r in srv.hits(path)]


def test_static_credentials_and_skip_auth(srv):
    with SyncHTTPClient(base_url=srv.url, bearer_token="abc") as client:
        client.get("/a")
        client.get("/a", skip_auth=True)
        client.post("/a", json={}, skip_auth=True)
    with SyncHTTPClient(base_url=srv.url, basic_auth=("u", None)) as client:
        client.get("/b")
    assert auth_of(srv, "/a") == ["Bearer abc", None, None]
    assert auth_of(srv, "/b") == ["Basic " + base64.b64encode(b"u:").decode()]
    with pytest.raises(ValueError):
        SyncHTTPClient(bearer_token="a", basic_auth=("u", "p"))


def test_sync_and_async_callables_per_request(srv):
    tokens = iter(["t1", "t2"])
    with SyncHTTPClient(base_url=srv.url, bearer_auth=lambda: next(tokens)) as client:
        client.get("/s")
        client.get("/s")
        client.get("/s", skip_auth=True)
    assert auth_of(srv, "/s") == ["Bearer t1", "Bearer t2", None]

    async def token():
        await asyncio.sleep(0)
        return "async-token"

    async def main():
        async with HTTPClient(base_url=srv.url, bearer_auth=token) as client:
            await client.get("/x")
            await client.get("/x", skip_auth=True)

    asyncio.run(main())
    assert auth_of(srv, "/x") == ["Bearer async-token", None]


class Provider:
    """An AuthProvider object: a token per call, invalidate() after a 401."""

    def __init__(self):
        self.n = 0
        self.invalidated = []

    def __call__(self):
        self.n += 1
        return f"tok{self.n}"

    def invalidate(self, token=None):
        self.invalidated.append(token)


def test_invalidate_after_401_and_one_resend_of_an_idempotent_request(srv):
    srv.script("/p", DENIED, OK)
    provider = Provider()
    with SyncHTTPClient(base_url=srv.url, bearer_auth=provider) as client:
        assert client.get("/p").status == 200
        assert provider.invalidated == ["tok1"] and auth_of(srv, "/p") == ["Bearer tok1", "Bearer tok2"]
        srv.script("/q", DENIED)  # a second 401: raised, no loop
        with pytest.raises(HTTPResponseError) as info:
            client.get("/q")
        assert info.value.status == 401 and len(srv.hits("/q")) == 2
        srv.script("/post", DENIED, OK)  # a POST: invalidated, not resent
        with pytest.raises(HTTPResponseError):
            client.post("/post", json={})
        assert len(srv.hits("/post")) == 1 and provider.invalidated[-1] == f"tok{provider.n}"


def test_async_provider_object_resend(srv):
    srv.script("/p", DENIED, OK)
    provider = Provider()

    async def main():
        async with HTTPClient(base_url=srv.url, bearer_auth=provider) as client:
            return await client.get("/p")

    assert asyncio.run(main()).status == 200 and provider.invalidated == ["tok1"]


@pytest.mark.parametrize("algorithm", ["MD5", "SHA-256"])
def test_digest_sync_and_async(srv, algorithm):
    path = f"/digest/{algorithm}"
    with SyncHTTPClient(base_url=srv.url, digest_auth=(USER, PASSWORD)) as client:
        assert client.get(path, response_data_type=dict).data == {"authenticated": True}
        assert client.post(path + "?x=1", json={"a": 1}).status == 200  # the challenge is reused: no 401
        assert client.get(path).status == 200
    sent = [r.headers.get("authorization") for r in srv.hits(path)]
    assert sent[0] is None and all(a.startswith("Digest ") for a in sent[1:]) and len(sent) == 4
    assert [a.split("nc=")[1][:8] for a in sent[1:]] == ["00000001", "00000002", "00000003"]
    assert 'uri="/digest/' + algorithm + '?x=1"' in sent[2] and f"algorithm={algorithm}" in sent[2]
    srv.script(path.replace("digest", "plain"), (401, [("WWW-Authenticate", 'Basic realm="x"')], b""))
    with SyncHTTPClient(base_url=srv.url, digest_auth=(USER, PASSWORD)) as client:
        with pytest.raises(HTTPResponseError):  # no Digest challenge: nothing to answer, not resent
            client.get(path.replace("digest", "plain"))
    assert len(srv.hits(path.replace("digest", "plain"))) == 1

    async def main():
        async with HTTPClient(base_url=srv.url, digest_auth=(USER, PASSWORD)) as client:
            return await client.get(path, response_data_type=dict)

    assert asyncio.run(main()).data == {"authenticated": True}
    with SyncHTTPClient(base_url=srv.url, digest_auth=(USER, "wrong")) as client:
        with pytest.raises(HTTPResponseError) as info:
            client.get(path)
    assert info.value.status == 401


TOKEN = (200, JSON, b'{"access_token": "oauth-1", "token_type": "Bearer", "expires_in": 3600}')


def test_oauth_one_fetch_for_100_concurrent_requests(srv):
    srv.script("/token", TOKEN)
    provider = OAuthProvider(token_url=srv.url + "/token", client_id="id", client_secret="s:e cret", scope="read")

    async def main():
        async with HTTPClient(base_url=srv.url, bearer_auth=provider) as client:
            return await asyncio.gather(*(client.get("/api") for _ in range(100)))

    responses = asyncio.run(main())
    assert all(r.status == 200 for r in responses) and len(srv.hits("/token")) == 1 and provider.fetches == 1
    token_request = srv.hits("/token")[0]
    assert token_request.method == "POST" and token_request.body == b"grant_type=client_credentials&scope=read"
    assert token_request.headers["authorization"] == "Basic " + base64.b64encode(b"id:s%3Ae%20cret").decode()
    assert set(auth_of(srv, "/api")) == {"Bearer oauth-1"}


def test_sync_oauth_threads_leeway_and_invalidation(srv):
    srv.script("/token", TOKEN)
    now = [1000.0]
    provider = SyncOAuthProvider(token_url=srv.url + "/token", client_id="id", client_secret="sec",
                                 client_auth="body", refresh_leeway=60)
    provider._clock = lambda: now[0]
    with SyncHTTPClient(base_url=srv.url, bearer_auth=provider) as client:
        threads = [threading.Thread(target=client.get, args=("/api",)) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(srv.hits("/token")) == 1
        assert b"client_id=id" in srv.hits("/token")[0].body
        now[0] += 3600 - 61  # not yet within the leeway
        client.get("/api")
        assert len(srv.hits("/token")) == 1
        now[0] += 2  # within 60 s of expiry: renewed
        client.get("/api")
        assert len(srv.hits("/token")) == 2
        srv.script("/api", DENIED, OK)  # a revoked token: invalidated, one fresh fetch, resent
        assert client.get("/api").status == 200 and len(srv.hits("/token")) == 3


def test_oauth_token_error(srv):
    srv.script("/token", (400, JSON, b'{"error":"invalid_client"}'))
    provider = SyncOAuthProvider(token_url=srv.url + "/token", client_id="id", client_secret="bad")
    with SyncHTTPClient(base_url=srv.url, bearer_auth=provider) as client:
        with pytest.raises(OAuthTokenError) as info:
            client.get("/api")
    assert info.value.token_url == srv.url + "/token" and isinstance(info.value.__cause__, HTTPResponseError)
    assert srv.hits("/api") == []
