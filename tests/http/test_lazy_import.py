"""The HTTP half of boltwire is imported on first use: `import boltwire` for Structs and JSON must not pay for
asyncio, ssl and the email package, and every public HTTP name must still resolve from the top-level package."""

import subprocess
import sys

import boltwire
import boltwire.http

HTTP_NAMES = sorted(boltwire._HTTP_NAMES)  # the names the package resolves on first use


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_boltwire_leaves_the_http_half_unloaded() -> None:
    loaded = run_python(
        "import sys, boltwire\n"
        "boltwire.json.decode(b'[1]', type=list[int])\n"
        "print(sorted(m for m in ('asyncio', 'ssl', 'boltwire.http') if m in sys.modules))"
    )
    assert loaded == "[]"


def test_http_names_resolve_from_the_package_in_a_fresh_process() -> None:
    out = run_python(
        "import boltwire\n"
        "c = boltwire.SyncHTTPClient\n"
        "import boltwire.http\n"
        "print(c is boltwire.http.SyncHTTPClient, boltwire.http is __import__('sys').modules['boltwire.http'])"
    )
    assert out == "True True"


def test_star_import_brings_the_http_names() -> None:
    out = run_python("from boltwire import *\nprint(HTTPClient.__name__, Response.__name__)")
    assert out == "HTTPClient Response"


def test_every_http_name_is_the_http_module_object() -> None:
    assert {"HTTPClient", "SyncHTTPClient", "Response", "HTTPTransportError"} <= set(HTTP_NAMES)
    for name in HTTP_NAMES:
        assert getattr(boltwire, name) is getattr(boltwire.http, name)
        assert name in boltwire.__all__
        assert name in dir(boltwire)


def test_an_unknown_attribute_is_still_an_attribute_error() -> None:
    try:
        boltwire.NoSuchThing  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("boltwire.NoSuchThing resolved")
