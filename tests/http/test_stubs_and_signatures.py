"""tests/http/test_stubs_and_signatures.py: every public callable of boltwire.http has a real signature that agrees
with the .pyi (names, kinds, which have defaults), and the stubs pass mypy and basedpyright, both on themselves and
on lothc-style code using them."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import boltwire.http as http

STUB = Path(http.__file__).with_name("__init__.pyi")
KINDS = {"posonly": inspect.Parameter.POSITIONAL_ONLY, "arg": inspect.Parameter.POSITIONAL_OR_KEYWORD,
         "vararg": inspect.Parameter.VAR_POSITIONAL, "kwonly": inspect.Parameter.KEYWORD_ONLY,
         "kwarg": inspect.Parameter.VAR_KEYWORD}


def stub_params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, object, bool]]:
    a = fn.args
    out = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, p in enumerate(positional):
        out.append((p.arg, KINDS["posonly" if i < len(a.posonlyargs) else "arg"], defaults[i] is not None))
    if a.vararg:
        out.append((a.vararg.arg, KINDS["vararg"], False))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((p.arg, KINDS["kwonly"], d is not None))
    if a.kwarg:
        out.append((a.kwarg.arg, KINDS["kwarg"], False))
    return [p for p in out if p[0] != "self"]


def runtime_params(obj: object) -> list[tuple[str, object, bool]]:
    sig = inspect.signature(obj)
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty) for p in sig.parameters.values()
            if p.name != "self"]


def stub_callables():
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield node.name, None, node
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                        continue
                    if item.name.startswith("_") and item.name not in ("__init__", "__call__"):
                        continue
                    yield node.name, item.name, item


def is_overload(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list)


def test_every_stubbed_callable_has_the_same_runtime_signature():
    checked = 0
    items = list(stub_callables())
    last = {}  # the last overload of each method: the catch-all, whose defaults match the implementation's
    for cls_name, method, node in items:
        last[(cls_name, method)] = node
    for cls_name, method, node in items:
        if cls_name in ("AuthProvider", "SyncAuthProvider"):  # protocols: nothing to call at runtime
            continue
        owner = getattr(http, cls_name)
        if method is None:
            target = owner
        elif method == "__init__":
            target = owner  # the class's own signature (inspect reads __init__ / __new__ / __text_signature__)
        else:
            target = getattr(owner, method)
        got, want = runtime_params(target), stub_params(node)
        if is_overload(node) and last[(cls_name, method)] is not node:  # an overload may require a parameter
            got, want = [p[:2] for p in got], [p[:2] for p in want]
        assert got == want, f"{cls_name}.{method}"
        checked += 1
    assert checked >= 40
    assert str(inspect.signature(http.HTTPClient)).startswith("(*, base_url: 'str | None' = None")
    assert "response_headers_type" in inspect.signature(http.SyncHTTPClient.get).parameters


def test_every_exported_name_is_in_the_stub():
    tree = ast.parse(STUB.read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert set(http.__all__) <= names, set(http.__all__) - names


LOTHC_STYLE = """
    import msgspec
    from boltwire.http import HTTPClient, HTTPResponseError, RequestInfo, Response, SyncHTTPClient

    class Item(msgspec.Struct):
        a: int

    class APIError(HTTPResponseError[Item]):
        pass

    async def f(c: HTTPClient) -> float:
        r = await c.get("/", into=Item)
        item: Item = r.data
        try:
            await c.post("/", json={"a": item.a}, raises=APIError, skip_auth=True)
        except APIError as e:
            info: RequestInfo = e.request
            assert info.path and e.body_start[:1] == b"{"
        return r.elapsed

    def g(c: SyncHTTPClient) -> bytes:
        r: Response[dict[str, int]] = c.get("/", response_data_type=dict[str, int])
        assert r.headers.copy().get_all("x") == []
        return c.get("/").data
"""


def _env():
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    return env


def test_mypy_accepts_the_stubs_and_lothc_style_code(tmp_path):
    (tmp_path / "snippet.py").write_text(textwrap.dedent(LOTHC_STYLE))
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull,
                           "--show-error-codes", "--no-error-summary", "snippet.py", str(STUB)],
                          capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=600)
    errors = [line for line in (proc.stdout + proc.stderr).splitlines()
              if "error:" in line and ("snippet.py" in line or "http/__init__.pyi" in line)]
    assert errors == []


def test_basedpyright_accepts_the_stubs_and_lothc_style_code(tmp_path):
    exe = Path(sys.executable).with_name("basedpyright")
    assert exe.exists(), "basedpyright is a test extra (pyproject.toml)"
    (tmp_path / "snippet.py").write_text(textwrap.dedent(LOTHC_STYLE))
    proc = subprocess.run([str(exe), "--pythonpath", sys.executable, "snippet.py", str(STUB)],
                          capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=600)
    errors = [line for line in proc.stdout.splitlines() if " - error:" in line]
    assert errors == [] and "0 errors" in proc.stdout, proc.stdout[-2000:]
