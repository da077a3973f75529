"""SyncHTTPClient's verbs are native method descriptors (csrc/http/client/verb_object.cpp): they must take their
arguments as the Python methods they replaced did (positional or keyword url, keyword-only options, the same
TypeErrors), report the same signature, bind like methods, and send what they are given."""

from __future__ import annotations

import inspect
import json

import pytest

from _local_server import LocalServer
from boltwire import Struct, SyncHTTPClient


class Doc(Struct):
    status: str


@pytest.fixture(scope="module")
def server():
    with LocalServer() as running, SyncHTTPClient(base_url=running.url) as shared:
        running.client = shared
        yield running


@pytest.fixture
def client(server):
    return server.client


VERBS = ("get", "head", "options", "delete", "post", "put", "patch")


@pytest.mark.parametrize("verb", VERBS)
def test_each_verb_sends_its_method(client, verb):
    r = getattr(client, verb)("/echo")
    assert r.status == 200
    if verb != "head":
        assert json.loads(r.data)["method"] == verb.upper()


def test_url_by_keyword_and_options_by_keyword(client):
    r = client.get(url="/json", response_data_type=Doc, timeout=5)
    assert r.data == Doc(status="success")
    assert client.post(url="/echo", json={"a": 1}, response_data_type=dict).data["body"] == '{"a":1}'


def test_options_from_a_built_mapping(client):
    # keywords that are not the call site's interned constants are found by value
    options = {"".join(["response_", "data_type"]): Doc, "".join(["time", "out"]): 5.0}
    assert client.get("/json", **options).data == Doc(status="success")


def test_request_upper_cases_its_method(client):
    r = client.request("patch", "/echo", content=b"x", response_data_type=dict)
    assert r.data["method"] == "PATCH"
    assert client.request(method="get", url="/echo", response_data_type=dict).data["method"] == "GET"
    with pytest.raises(AttributeError):
        client.request(1, "/echo")


def test_argument_errors_are_the_python_ones(client):
    with pytest.raises(TypeError, match=r"SyncHTTPClient\.get\(\) missing 1 required positional argument: 'url'"):
        client.get()
    with pytest.raises(TypeError, match=r"SyncHTTPClient\.get\(\) takes 2 positional arguments but 3 were given"):
        client.get("/echo", None)
    with pytest.raises(TypeError, match=r"SyncHTTPClient\.get\(\) got an unexpected keyword argument 'json'"):
        client.get("/echo", json={})  # get has no body options
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'bogus'"):
        client.post("/echo", bogus=1)
    with pytest.raises(TypeError, match=r"got multiple values for argument 'url'"):
        client.get("/echo", url="/echo")
    with pytest.raises(TypeError, match=r"SyncHTTPClient\.request\(\) missing 1 required positional argument: 'url'"):
        client.request("GET")
    with pytest.raises(TypeError, match=r"needs an argument"):
        SyncHTTPClient.get()


def test_binding_and_unbound_calls(client):
    assert SyncHTTPClient.get.__name__ == "get"
    assert SyncHTTPClient.get.__qualname__ == "SyncHTTPClient.get"
    assert SyncHTTPClient.get.__module__ == "boltwire.http._client"
    bound = client.get
    assert bound.__self__ is client and bound.__func__ is SyncHTTPClient.get
    assert bound("/json", response_data_type=Doc).data == Doc(status="success")
    assert SyncHTTPClient.get(client, "/json", response_data_type=Doc).data == Doc(status="success")


def test_signatures(client):
    sig = inspect.signature(SyncHTTPClient.get)
    assert list(sig.parameters)[:2] == ["self", "url"]
    assert sig.parameters["url"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert sig.parameters["response_data_type"].default is bytes
    assert sig.parameters["skip_auth"].default is False
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(sig.parameters.values())[2:])
    post = inspect.signature(client.post)  # bound: no self
    assert list(post.parameters)[0] == "url"
    assert post.parameters["infer_mime_type_from_file_extension"].default is True
    assert list(inspect.signature(SyncHTTPClient.request).parameters)[:3] == ["self", "method", "url"]


def test_a_subclass_can_override_and_call_up(server):
    class Counting(SyncHTTPClient):
        calls = 0

        def get(self, url, **options):
            Counting.calls += 1
            return super().get(url, **options)

    with Counting(base_url=server.url) as c:
        assert c.get("/json", response_data_type=Doc).data == Doc(status="success")
    assert Counting.calls == 1


def test_verb_construction_is_checked():
    from boltwire._core import _HttpVerb

    with pytest.raises(ValueError, match="unknown option"):
        _HttpVerb("GET", ("nope",))
    with pytest.raises(ValueError, match="given twice"):
        _HttpVerb("GET", ("params", "params"))
    with pytest.raises(TypeError):
        _HttpVerb(b"GET", ())
