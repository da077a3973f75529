"""tests/http/test_fuzz_http_checks.py: the properties of the fuzz_cookie and fuzz_multipart targets
(fuzz/python/http_checks.py) hold on their seed corpora (fuzz/corpus/), so `make test` keeps the checks importable
and true between `make fuzz` runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"
_spec = importlib.util.spec_from_file_location("http_checks", FUZZ / "python" / "http_checks.py")
http_checks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(http_checks)

SEEDS = [(target, path) for target in ("cookie", "multipart")
         for path in sorted((FUZZ / "corpus" / f"fuzz_{target}").iterdir())]


def test_each_target_has_seeds():
    assert {t for t, _ in SEEDS} == {"cookie", "multipart"}


@pytest.mark.parametrize("target, path", SEEDS, ids=[p.name for _, p in SEEDS])
def test_check_holds_on_the_seed(target, path):
    getattr(http_checks, f"check_{target}")(path.read_bytes())


def test_checks_catch_a_broken_property(monkeypatch):
    # The multipart check compares what the stdlib parser reads back with what was sent: a writer that drops a
    # byte of the content must fail it.
    from boltwire.http import _multipart

    real = _multipart.encode_form

    def lossy(fields, **kwargs):
        return real({k: (v[:-1] if isinstance(v, bytes) else v) for k, v in fields.items()}, **kwargs)

    monkeypatch.setattr(http_checks, "encode_form", lossy)
    with pytest.raises(AssertionError):
        http_checks.check_multipart(bytes([0, 1, 0, 65, 3, 0]) + b"xyz")  # one bytes field "xyz"
