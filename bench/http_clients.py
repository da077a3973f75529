"""bench/http_clients.py: the HTTP race's contestants: how each client makes one GET and decodes the JSON.

Every client is built the way its documentation shows for a pooled, keep-alive session, with its pool allowed
the race's concurrency where it has such a knob (so that no client waits on a pool smaller than the others').
A contestant is `name -> Client(async_session, sync_session)`; a session takes the race's Endpoint (the base
URL, the path, and for https the CA file that must be trusted) and is a context manager that yields a `fetch()` (a
coroutine function for async) returning the decoded body, raising when the status is not 200. https trusts the
bench's CA by each client's own option, and stays on HTTP/1.1 (niquests, wreq and pyreqwest would take h2 were
it offered by ALPN: the https race compares HTTP/1.1 over TLS); a client that cannot speak the race's protocol
raises NotAvailable. The h2 race (Endpoint.http2) asks each client for HTTP/2 by its own option and checks the
HTTP version of a first response before the warm-up: a row that did not get h2 raises NotAvailable rather than
race on HTTP/1.1.
The gzip race's clients (boltwire, pyreqwest, wreq, aiohttp, httpx) send `Accept-Encoding: gzip` and decode gzip by
their own defaults; the race relies on it, and its nginx location proves it (406 to a request that does not accept
gzip).
Imports happen inside the sessions, so a missing package is reported as such by bench/http_case.py.
"""


from collections.abc import Callable
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path


class NotAvailable(Exception):
    """The contestant cannot run in this environment (not an error in the contestant)."""


@dataclass(frozen=True)
class Client:
    async_session: Callable | None  # (Endpoint, concurrency) -> async context manager yielding `async fetch()`
    sync_session: Callable | None  # (Endpoint) -> context manager yielding `fetch()`
    module: str  # the distribution whose version is reported


@dataclass(frozen=True)
class Endpoint:
    """Where a race sends its requests."""

    url: str  # the base URL: http://127.0.0.1:PORT, or https://127.0.0.1:PORT
    ca_file: str | None = None  # https: the PEM file of the CA that issued the server's certificate
    path: str = "/"  # what every request GETs (the gzip race: /gzipped, which nginx compresses)
    http2: bool = False  # the h2 race: the client must use HTTP/2 (offered by ALPN over TLS)

    def ca_pem(self) -> bytes:
        return Path(self.ca_file).read_bytes()

    def ssl_context(self):
        """A stdlib SSLContext trusting only the bench's CA (for the clients that take one)."""
        import ssl

        return ssl.create_default_context(cafile=self.ca_file)


def check_status(status: int) -> None:
    if status != 200:
        raise RuntimeError(f"status {status}")


def require_http2(target: Endpoint, version) -> None:
    """The h2 race: `version` (the first response's HTTP version, as the client spells it) must be HTTP/2."""
    if not target.http2:
        return
    text = str(version).upper()
    if not any(h2 in text for h2 in ("HTTP/2", "HTTP_2", "H2")) and text != "20":
        raise NotAvailable(f"not on HTTP/2: asked for h2 (offered by ALPN) but got {version}")


# -- boltwire: one HTTPClient, four response_data_types


def boltwire_types():
    """The payload's nested shape as a boltwire Struct (built lazily: the import may fail)."""
    import boltwire

    class Metadata(boltwire.Struct):
        last_login: str
        login_count: int
        active: bool

    class User(boltwire.Struct):
        id: int
        name: str
        email: str
        roles: list[str]
        metadata: Metadata

    class Nested(boltwire.Struct):
        depth: int
        values: list[int]

    class Item(boltwire.Struct):
        id: int
        title: str
        tags: list[str]
        score: float
        nested: Nested

    class Pagination(boltwire.Struct):
        page: int
        limit: int
        total: int
        has_more: bool

    class Payload(boltwire.Struct):
        status: str
        timestamp: str
        user: User
        data: list[Item]
        pagination: Pagination

    return Payload


def msgspec_types():
    import msgspec

    class Metadata(msgspec.Struct):
        last_login: str
        login_count: int
        active: bool

    class User(msgspec.Struct):
        id: int
        name: str
        email: str
        roles: list[str]
        metadata: Metadata

    class Nested(msgspec.Struct):
        depth: int
        values: list[int]

    class Item(msgspec.Struct):
        id: int
        title: str
        tags: list[str]
        score: float
        nested: Nested

    class Pagination(msgspec.Struct):
        page: int
        limit: int
        total: int
        has_more: bool

    class Payload(msgspec.Struct):
        status: str
        timestamp: str
        user: User
        data: list[Item]
        pagination: Pagination

    return Payload


def pydantic_types():
    import pydantic

    class Metadata(pydantic.BaseModel):
        last_login: str
        login_count: int
        active: bool

    class User(pydantic.BaseModel):
        id: int
        name: str
        email: str
        roles: list[str]
        metadata: Metadata

    class Nested(pydantic.BaseModel):
        depth: int
        values: list[int]

    class Item(pydantic.BaseModel):
        id: int
        title: str
        tags: list[str]
        score: float
        nested: Nested

    class Pagination(pydantic.BaseModel):
        page: int
        limit: int
        total: int
        has_more: bool

    class Payload(pydantic.BaseModel):
        status: str
        timestamp: str
        user: User
        data: list[Item]
        pagination: Pagination

    return Payload


def boltwire_module():
    try:
        import boltwire
    except ImportError as e:
        raise NotAvailable(f"not installed ({e})") from None
    if not hasattr(boltwire, "HTTPClient") or not hasattr(boltwire, "SyncHTTPClient"):
        raise NotAvailable("not available: boltwire.HTTPClient / SyncHTTPClient are not built yet")
    return boltwire


def boltwire_client(make_type: Callable[[], object]) -> Client:
    def options(target: Endpoint) -> dict:
        if not target.ca_file:
            return {}
        h2 = {"http2": True} if target.http2 else {}
        return {"root_certificates": [target.ca_pem()], "tls_built_in_root_certs": False, **h2}

    @asynccontextmanager
    async def async_session(target: Endpoint, concurrency: int):
        bw = boltwire_module()
        data_type = make_type()
        async with bw.HTTPClient(base_url=target.url, **options(target)) as client:

            async def fetch():
                r = await client.get(target.path, response_data_type=data_type)
                check_status(r.status)
                return r.data

            if target.http2:
                require_http2(target, (await client.get("/")).http_version)
            yield fetch

    @contextmanager
    def sync_session(target: Endpoint):
        bw = boltwire_module()
        data_type = make_type()
        with bw.SyncHTTPClient(base_url=target.url, **options(target)) as client:

            def fetch():
                r = client.get(target.path, response_data_type=data_type)
                check_status(r.status)
                return r.data

            yield fetch

    return Client(async_session, sync_session, "boltwire")


# -- lothc (the seed page's own client): one HTTPClient, three response data types, as the seed defines them


def lothc_call():
    """(make client, keyword naming the decode target, unwrap) for whichever lothc is installed.

    lothc 0.2 spells the target `into=`, 0.1 `response_data_type=`; 0.0.x built clients with
    `HTTPClient.build(...)` and returned the decoded body instead of a Response.
    """
    import inspect

    import lothc

    keyword = "into" if "into" in inspect.signature(lothc.HTTPClient.get).parameters else "response_data_type"
    build = getattr(lothc.HTTPClient, "build", None)
    sync_build = getattr(lothc.SyncHTTPClient, "build", None)

    def unwrap(result):
        if hasattr(result, "status") and hasattr(result, "data"):
            check_status(result.status)
            return result.data
        return result  # 0.0.x: the body itself (a non-2xx status raised)

    return (build or lothc.HTTPClient), (sync_build or lothc.SyncHTTPClient), keyword, unwrap


def plain_http_only(target: Endpoint) -> None:
    if target.ca_file:
        raise NotAvailable("not run over https (plain http race only)")


def lothc_client(make_type: Callable[[], object]) -> Client:
    @asynccontextmanager
    async def async_session(target: Endpoint, concurrency: int):
        plain_http_only(target)
        make, _, keyword, unwrap = lothc_call()
        options = {keyword: make_type()}
        async with make(base_url=target.url) as client:

            async def fetch():
                return unwrap(await client.get(target.path, **options))

            yield fetch

    @contextmanager
    def sync_session(target: Endpoint):
        plain_http_only(target)
        _, make, keyword, unwrap = lothc_call()
        options = {keyword: make_type()}
        with make(base_url=target.url) as client:

            def fetch():
                return unwrap(client.get(target.path, **options))

            yield fetch

    return Client(async_session, sync_session, "lothc")


# -- peers


def pyreqwest_builder(builder, target: Endpoint):
    builder = builder.base_url(target.url)
    if not target.ca_file:
        return builder
    builder = builder.add_root_certificate_pem(target.ca_pem())
    return builder.http2(True) if target.http2 else builder.http1_only()  # pyreqwest's h2 is opt-in


@asynccontextmanager
async def pyreqwest_async(target: Endpoint, concurrency: int):
    from pyreqwest.client import ClientBuilder

    async with pyreqwest_builder(ClientBuilder(), target).build() as client:

        async def fetch():
            resp = await client.get(target.path).build().send()
            check_status(resp.status)
            return await resp.json()

        if target.http2:
            require_http2(target, (await client.get("/").build().send()).version)
        yield fetch


@contextmanager
def pyreqwest_sync(target: Endpoint):
    from pyreqwest.client import SyncClientBuilder

    with pyreqwest_builder(SyncClientBuilder(), target).build() as client:

        def fetch():
            resp = client.get(target.path).build().send()
            check_status(resp.status)
            return resp.json()

        yield fetch


def wreq_options(target: Endpoint) -> dict:
    if not target.ca_file:
        return {}
    return {"tls_verify": Path(target.ca_file), **({} if target.http2 else {"http1_only": True})}


@asynccontextmanager
async def wreq_async(where: Endpoint, concurrency: int):
    import wreq

    client = wreq.Client(**wreq_options(where))
    target = where.url + where.path

    async def fetch():
        resp = await client.get(target)
        check_status(resp.status.as_int())
        return await resp.json()

    if where.http2:
        require_http2(where, (await client.get(target)).version)
    yield fetch


@contextmanager
def wreq_sync(where: Endpoint):
    import wreq.blocking

    client = wreq.blocking.Client(**wreq_options(where))
    target = where.url + where.path

    def fetch():
        resp = client.get(target)
        check_status(resp.status.as_int())
        return resp.json()

    try:
        yield fetch
    finally:
        client.close()


@asynccontextmanager
async def aiohttp_async(target: Endpoint, concurrency: int):
    import aiohttp

    tls = {"ssl": target.ssl_context()} if target.ca_file else {}
    connector = aiohttp.TCPConnector(limit=concurrency, **tls)
    async with aiohttp.ClientSession(target.url, connector=connector) as session:

        async def fetch():
            async with session.get(target.path) as resp:
                check_status(resp.status)
                return await resp.json()

        yield fetch


def httpx_like(module_name: str) -> Client:
    def options(target: Endpoint) -> dict:
        return {"verify": target.ssl_context()} if target.ca_file else {}

    @asynccontextmanager
    async def async_session(target: Endpoint, concurrency: int):
        mod = __import__(module_name)
        limits = mod.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        h2 = {"http2": True} if target.http2 else {}  # needs the `h2` package
        async with mod.AsyncClient(base_url=target.url, limits=limits, **options(target), **h2) as client:

            async def fetch():
                resp = await client.get(target.path)
                check_status(resp.status_code)
                return resp.json()

            if target.http2:
                require_http2(target, (await client.get("/")).http_version)
            yield fetch

    @contextmanager
    def sync_session(target: Endpoint):
        mod = __import__(module_name)
        with mod.Client(base_url=target.url, **options(target)) as client:

            def fetch():
                resp = client.get(target.path)
                check_status(resp.status_code)
                return resp.json()

            yield fetch

    return Client(async_session, sync_session, module_name)


def verify_option(where: Endpoint) -> dict:
    """requests-style `verify=CA file`, per request: the session attribute loses to $REQUESTS_CA_BUNDLE."""
    return {"verify": where.ca_file} if where.ca_file else {}


@asynccontextmanager
async def niquests_async(where: Endpoint, concurrency: int):
    import niquests

    http1 = {"disable_http2": True, "disable_http3": True} if where.ca_file else {}
    if where.http2:
        http1 = {"disable_http3": True}  # h2 by ALPN (its default), no QUIC probing
    async with niquests.AsyncSession(pool_connections=1, pool_maxsize=concurrency, **http1) as session:
        target, verify = where.url + where.path, verify_option(where)

        async def fetch():
            resp = await session.get(target, **verify)
            check_status(resp.status_code)
            return resp.json()

        if where.http2:
            require_http2(where, (await session.get(target, **verify)).http_version)
        yield fetch


@contextmanager
def niquests_sync(where: Endpoint):
    import niquests

    http1 = {"disable_http2": True, "disable_http3": True} if where.ca_file else {}
    with niquests.Session(**http1) as session:
        target, verify = where.url + where.path, verify_option(where)

        def fetch():
            resp = session.get(target, **verify)
            check_status(resp.status_code)
            return resp.json()

        yield fetch


@asynccontextmanager
async def aiosonic_async(where: Endpoint, concurrency: int):
    plain_http_only(where)
    import aiosonic
    from aiosonic.pools import PoolConfig

    connector = aiosonic.TCPConnector(pool_configs={":default": PoolConfig(size=concurrency)})
    async with aiosonic.HTTPClient(connector=connector) as client:
        target = where.url + where.path

        async def fetch():
            resp = await client.get(target)
            check_status(resp.status_code)
            return await resp.json()

        yield fetch
    await connector.cleanup()


@contextmanager
def requests_sync(where: Endpoint):
    import requests

    with requests.Session() as session:
        target, verify = where.url + where.path, verify_option(where)

        def fetch():
            resp = session.get(target, **verify)
            check_status(resp.status_code)
            return resp.json()

        yield fetch


CLIENTS: dict[str, Client] = {
    "boltwire (dict)": boltwire_client(lambda: dict),
    "boltwire (Struct)": boltwire_client(boltwire_types),
    "boltwire-msgspec": boltwire_client(msgspec_types),
    "boltwire-pydantic": boltwire_client(pydantic_types),
    "lothc": lothc_client(lambda: dict),
    "lothc-msgspec": lothc_client(msgspec_types),
    "lothc-pydantic": lothc_client(pydantic_types),
    "pyreqwest": Client(pyreqwest_async, pyreqwest_sync, "pyreqwest"),
    "wreq": Client(wreq_async, wreq_sync, "wreq"),
    "aiohttp": Client(aiohttp_async, None, "aiohttp"),
    "httpx": httpx_like("httpx"),
    "httpx2": httpx_like("httpx2"),
    "niquests": Client(niquests_async, niquests_sync, "niquests"),
    "aiosonic": Client(aiosonic_async, None, "aiosonic"),
    "requests": Client(None, requests_sync, "requests"),
}


def field(obj, name):
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def check_payload(data) -> None:
    """Deep spot checks that hold for a dict and for every typed decode of the payload."""
    user = field(data, "user")
    items = field(data, "data")
    ok = (
        field(data, "status") == "success"
        and field(user, "name") == "Alice Johnson"
        and list(field(user, "roles")) == ["admin", "editor"]
        and field(field(user, "metadata"), "login_count") == 127
        and field(items[0], "score") == 95.5
        and list(field(field(items[1], "nested"), "values")) == [40, 50, 60]
        and field(field(data, "pagination"), "has_more") is True
    )
    if not ok:
        raise AssertionError(f"wrong decoded payload: {data!r:.200}")
