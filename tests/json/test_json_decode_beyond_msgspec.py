"""boltwire's additions over msgspec: field aliases, validate_on_init, Decoder(forbid_unknown_fields=True),
Meta(validator=...), float_hook. Each runs through both json.decode and convert where both apply."""

import decimal
from typing import Annotated

import pytest

import boltwire as bw
from boltwire import json as bj


class User(bw.Struct):
    user_id: int = bw.field(name="userId", aliases=("user_id", "uid"))
    name: str = ""


class Admin(User):
    level: int = 0


@pytest.mark.parametrize("key", ["userId", "user_id", "uid"])
def test_aliases_accept_every_input_name(key):
    buf = b'{"%s": 7, "name": "x"}' % key.encode()
    assert bj.decode(buf, type=User) == User(7, "x")
    assert bw.convert({key: 7, "name": "x"}, User) == User(7, "x")


def test_aliases_are_inherited_and_encoding_keeps_the_encoded_name():
    assert bj.decode(b'{"uid": 3, "level": 2}', type=Admin) == Admin(3, "", 2)
    assert bj.encode(User(1)) == b'{"userId":1,"name":""}'
    assert User.__struct_aliases__ == (("user_id", "uid"), ())


def test_alias_errors_report_the_encoded_name_in_the_path():
    with pytest.raises(bw.ValidationError, match=r"Expected `int`, got `str` - at `\$.userId`"):
        bj.decode(b'{"uid": "x"}', type=User)


def test_field_aliases_must_be_strings():
    with pytest.raises(TypeError, match="aliases must be an iterable of str"):
        bw.field(aliases="ab")
    with pytest.raises(TypeError, match="aliases must be an iterable of str"):
        bw.field(aliases=[1])
    assert bw.field(aliases=["a"]).aliases == ("a",)


class Checked(bw.Struct, validate_on_init=True):
    x: int
    y: Annotated[str, bw.Meta(max_length=3)] = "a"
    z: tuple[int, ...] = ()


class Unchecked(bw.Struct):
    x: int


def test_validate_on_init_checks_types_and_constraints():
    assert Checked(1, "ab", [1, 2]) == Checked(1, "ab", (1, 2))  # converted like convert(strict=True)
    with pytest.raises(bw.ValidationError, match=r"Expected `int`, got `str` - at `\$.x`"):
        Checked("1")
    with pytest.raises(bw.ValidationError, match=r"Expected `str` of length <= 3 - at `\$.y`"):
        Checked(1, "abcd")
    with pytest.raises(bw.ValidationError, match=r"at `\$.z\[0\]`"):
        Checked(1, "a", ["q"])
    assert Checked.__struct_config__.validate_on_init is True


def test_validate_on_init_is_off_by_default():
    assert Unchecked("not an int").x == "not an int"
    assert Unchecked.__struct_config__.validate_on_init is False


def test_validate_on_init_tracks_converted_containers():
    import gc

    class Holder(bw.Struct, validate_on_init=True):
        items: list[int]

    h = Holder((1, 2))  # an (untracked) tuple becomes a list: the instance must be tracked now
    assert h.items == [1, 2]
    assert gc.is_tracked(h)


class Strict(bw.Struct):
    a: int


def test_decoder_level_forbid_unknown_fields():
    lenient = bj.Decoder(Strict)
    strict = bj.Decoder(list[Strict], forbid_unknown_fields=True)
    assert lenient.decode(b'{"a": 1, "b": 2}') == Strict(1)
    assert strict.forbid_unknown_fields is True
    with pytest.raises(bw.ValidationError, match=r"Object contains unknown field `b` - at `\$\[0\]`"):
        strict.decode(b'[{"a": 1, "b": 2}]')


def test_meta_validator_runs_after_the_type_check():
    def even(v):
        if v % 2:
            raise ValueError(f"{v} is odd")

    Even = Annotated[int, bw.Meta(validator=even)]
    assert bj.decode(b"[2, 4]", type=list[Even]) == [2, 4]
    with pytest.raises(bw.ValidationError, match=r"3 is odd - at `\$\[1\]`") as info:
        bj.decode(b"[2, 3]", type=list[Even])
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(bw.ValidationError, match=r"3 is odd - at `\$\[0\]`"):
        bw.convert([3], list[Even])
    with pytest.raises(bw.ValidationError, match=r"Expected `int`, got `str`"):
        bj.decode(b'["x"]', type=list[Even])  # the type check comes first


def test_float_hook_applies_to_untyped_floats_only():
    dec = bj.Decoder(float_hook=decimal.Decimal)
    assert dec.decode(b'[1.5, 2, {"a": 1e3}]') == [decimal.Decimal("1.5"), 2, {"a": decimal.Decimal("1E+3")}]
    typed = bj.Decoder(list[float], float_hook=decimal.Decimal)
    assert typed.decode(b"[1.5]") == [1.5]
