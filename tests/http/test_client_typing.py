"""The stubs type Response[T] from response_data_type (mypy run on snippets)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def run_mypy(tmp_path, source):
    pytest.importorskip("mypy")
    path = tmp_path / "snippet.py"
    path.write_text(textwrap.dedent(source))
    import boltwire

    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    root = Path(boltwire.__file__).resolve().parent.parent
    if root.name not in ("site-packages", "dist-packages"):
        env["MYPYPATH"] = str(root)  # a source tree (PYTHONPATH=src): point mypy at the boltwire under test
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--show-error-codes",
         "--no-error-summary", str(path)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )
    # Only the snippet's own lines count (errors inside the package under test are other tests' business);
    # "builtins." is dropped so the reveal_type spelling does not depend on the mypy version.
    lines = [line.replace("builtins.", "") for line in (proc.stdout + proc.stderr).splitlines()]
    return [line for line in lines if line.startswith("snippet.py")]


def test_response_data_type_drives_response_type_and_misuse_is_rejected(tmp_path):
    lines = run_mypy(
        tmp_path,
        """
        import msgspec
        from boltwire import HTTPClient, SyncHTTPClient

        class M(msgspec.Struct):
            a: int

        async def f(c: HTTPClient) -> None:
            reveal_type((await c.get("/", response_data_type=M)).data)
            reveal_type((await c.post("/", json={"a": 1})).data)

        def g(c: SyncHTTPClient) -> None:
            reveal_type(c.get("/", response_data_type=dict).data)
            reveal_type(c.get("/", response_data_type=msgspec.json.Decoder(M)).data)
            reveal_type(c.get("/").headers.get_all("x"))

        def bad(c: SyncHTTPClient) -> None:
            n: int = c.get("/").data
            c.get("/", bogus=1)
        """,
    )
    reveals = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed type is" in line]
    errors = [line for line in lines if ": error:" in line]
    assert reveals == ['"snippet.M"', '"bytes"', '"dict[Any, Any]"', '"snippet.M"', '"list[str]"'], lines
    assert {e.split(":")[1] for e in errors} == {"18", "19"}, errors  # the two lines of bad()


def test_tls_options_are_typed(tmp_path):
    lines = run_mypy(
        tmp_path,
        """
        from boltwire import HTTPClient, SyncHTTPClient
        from boltwire.http import HTTPConnectionError, HTTPTLSError

        SyncHTTPClient(root_certificates=[b"pem"], tls_built_in_root_certs=False, identity_pem=b"pem",
                       min_tls_version="TLSv1.2", max_tls_version="TLSv1.3", danger_accept_invalid_certs=True,
                       danger_accept_invalid_hostnames=True, https_only=True)
        HTTPClient(min_tls_version="TLSv1.3")
        error: HTTPConnectionError = HTTPTLSError("x")
        SyncHTTPClient(min_tls_version="TLSv1.0")
        HTTPClient(root_certificates=b"pem")
        """,
    )
    errors = [line for line in lines if ": error:" in line]
    assert {e.split(":")[1] for e in errors} == {"10", "11"}, errors


def test_streams_downloads_and_sse_are_typed(tmp_path):
    lines = run_mypy(
        tmp_path,
        """
        from pathlib import Path
        import msgspec
        from boltwire import HTTPClient, SyncHTTPClient

        class M(msgspec.Struct):
            a: int

        async def f(c: HTTPClient) -> None:
            async with c.stream_get("/", response_data_type=M) as s:
                reveal_type(s.status)
                async for item in s:
                    reveal_type(item)
            async for chunk in c.stream_post("/", form={"f": Path("x")}, content=None):
                reveal_type(chunk)
            reveal_type((await c.download("/", "out.bin")).data)
            reveal_type((await c.download("/")).data)
            async for event in c.sse("/", M):
                reveal_type(event.data)

        def g(c: SyncHTTPClient) -> None:
            for item in c.stream("GET", "/", into=M):
                reveal_type(item)
            for event in c.sse("/"):
                reveal_type(event.data)

        def bad(c: SyncHTTPClient) -> None:
            n: int = next(iter(c.stream_get("/")))
        """,
    )
    reveals = [line.split("Revealed type is ", 1)[1] for line in lines if "Revealed type is" in line]
    errors = [line for line in lines if ": error:" in line]
    assert reveals == ['"int"', '"snippet.M"', '"bytes"', '"pathlib.Path"', '"bytes"', '"snippet.M"', '"snippet.M"',
                       '"str"'], lines
    assert [e.split(":")[1] for e in errors] == ["28"], errors  # the line of bad()
