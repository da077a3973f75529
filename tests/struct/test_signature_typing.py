"""inspect.signature of Struct classes, and static typing through mypy."""

import inspect
import os
import subprocess
import sys
import textwrap

import pytest

from boltwire import Struct, field

P = inspect.Parameter


class Point(Struct):
    x: int
    y: int = 0


class KwOnly(Struct, kw_only=True):
    a: int = 1
    b: str


class Mixed(Point, kw_only=True):
    z: float = 1.5


class Factory(Struct):
    items: list = field(default_factory=list)
    empty: dict = {}


class Renamed(Struct, rename="camel"):
    field_one: int


def test_signature_positional_with_defaults():
    sig = inspect.signature(Point)
    params = list(sig.parameters.values())
    assert [p.name for p in params] == ["x", "y"]
    assert params[0].kind is P.POSITIONAL_OR_KEYWORD
    assert params[0].default is P.empty
    assert params[1].kind is P.POSITIONAL_OR_KEYWORD
    assert params[1].default == 0
    assert params[0].annotation is int


def test_signature_kw_only():
    sig = inspect.signature(KwOnly)
    a, b = sig.parameters.values()
    assert a.kind is P.KEYWORD_ONLY and a.default == 1
    assert b.kind is P.KEYWORD_ONLY and b.default is P.empty
    assert b.annotation is str


def test_signature_mixed():
    sig = inspect.signature(Mixed)
    assert [(p.name, p.kind) for p in sig.parameters.values()] == [
        ("x", P.POSITIONAL_OR_KEYWORD),
        ("y", P.POSITIONAL_OR_KEYWORD),
        ("z", P.KEYWORD_ONLY),
    ]
    assert params_str(sig) == "(x: int, y: int = 0, *, z: float = 1.5)"


def params_str(sig):
    # Compare the parameter list only: a "-> None" return annotation (as dataclasses show) is fine either way
    assert sig.return_annotation in (inspect.Signature.empty, None)
    return str(sig.replace(return_annotation=inspect.Signature.empty))


def test_signature_str():
    assert params_str(inspect.signature(Point)) == "(x: int, y: int = 0)"


def test_signature_factory_defaults_not_required():
    sig = inspect.signature(Factory)
    for p in sig.parameters.values():
        assert p.default is not P.empty


def test_signature_uses_attribute_names():
    assert list(inspect.signature(Renamed).parameters) == ["field_one"]


def test_signature_binds_like_init():
    sig = inspect.signature(Point)
    bound = sig.bind(1, y=2)
    assert Point(*bound.args, **bound.kwargs) == Point(1, 2)
    with pytest.raises(TypeError):
        sig.bind()


def test_signature_empty():
    class E(Struct):
        pass

    assert len(inspect.signature(E).parameters) == 0


# ---- mypy -------------------------------------------------------------------------------------------------


def run_mypy(tmp_path, source):
    pytest.importorskip("mypy")
    path = tmp_path / "snippet.py"
    path.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "--show-error-codes",
            "--no-error-summary",
            "--strict-optional",
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_mypy_accepts_valid_usage(tmp_path):
    code, out = run_mypy(
        tmp_path,
        """
        import boltwire

        class P(boltwire.Struct, frozen=True):
            x: int

        p = P(x=1)
        q = P(2)
        y: int = p.x + q.x
        reveal_type(p)
        """,
    )
    assert "error" not in out, out
    assert code == 0, out
    assert "P" in out  # reveal_type output proves mypy actually analysed the snippet


def test_mypy_rejects_wrong_field_type(tmp_path):
    code, out = run_mypy(
        tmp_path,
        """
        import boltwire

        class P(boltwire.Struct, frozen=True):
            x: int

        P(x="a")
        """,
    )
    assert code != 0, out
    assert "snippet.py:7" in out, out
    assert "arg-type" in out or "incompatible type" in out.lower(), out


def test_mypy_rejects_unknown_and_missing_field(tmp_path):
    code, out = run_mypy(
        tmp_path,
        """
        import boltwire

        class P(boltwire.Struct):
            x: int

        P(x=1, z=2)
        P()
        """,
    )
    assert code != 0, out
    assert "snippet.py:7" in out and "snippet.py:8" in out, out
