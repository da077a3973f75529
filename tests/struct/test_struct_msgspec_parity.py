"""Struct class options and helpers, each checked against msgspec doing the same thing."""

import gc
import inspect
import pickle
import sys
import weakref

import msgspec
import pytest

import boltwire

LIBS = [boltwire, msgspec]
BOOL_OPTIONS = ["frozen", "order", "eq", "repr_omit_defaults", "array_like", "gc", "omit_defaults",
                "forbid_unknown_fields"]


def outcome(fn):
    """('ok', value) or (exception type name, message) — comparable across the two libraries."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("option", BOOL_OPTIONS)
def test_option_precedence_matches_msgspec(option):
    def configs(lib):
        def get(cls):
            return getattr(cls.__struct_config__, option)

        class Default(lib.Struct):
            pass

        class Enabled(lib.Struct, **{option: True}):
            pass

        class Disabled(lib.Struct, **{option: False}):
            pass

        class Inherit(Enabled, **{option: None}):  # None is read by truthiness: an explicit False
            pass

        class Left(Enabled, Default):
            pass

        class Right(Default, Enabled):  # an explicit setting beats a base's default
            pass

        class First(Default, Disabled, Enabled):  # among explicit settings the earlier base wins
            pass

        return [get(c) for c in (Default, Enabled, Disabled, Inherit, Left, Right, First)]

    assert configs(boltwire) == configs(msgspec)


@pytest.mark.parametrize("opts", [{"gc": False, "dict": True}, {"gc": False, "weakref": True}])
def test_gc_false_with_dict_or_weakref_refused_like_msgspec(opts):
    def define(lib):
        return type(lib.Struct)("T", (lib.Struct,), {}, **opts)

    ours, theirs = outcome(lambda: define(boltwire)), outcome(lambda: define(msgspec))
    assert ours[0] == theirs[0] == "ValueError"
    assert theirs[1].startswith(ours[1])  # msgspec adds a reason after the same sentence


def test_weakref_and_dict_follow_the_base_layout():
    for lib in LIBS:
        class Enabled(lib.Struct, weakref=True, dict=True):
            pass

        class Child(Enabled):
            pass

        assert Child.__struct_config__.weakref and Child.__struct_config__.dict
        assert Child.__weakrefoffset__ != 0
        with pytest.raises(ValueError, match="Cannot set `weakref=False`"):
            type(lib.Struct)("T", (Enabled,), {}, weakref=False)


@pytest.mark.parametrize("name", ["NODEFAULT", "UNSET"])
def test_marker_types_return_their_singleton(name):
    for lib in LIBS:
        obj = getattr(lib, name)
        assert type(obj)() is obj
        assert pickle.loads(pickle.dumps(obj)) is obj
        with pytest.raises(TypeError):
            type(obj)(1)


def test_finalizer_runs_and_may_resurrect():
    for lib in LIBS:
        for has_gc in (False, True):
            seen = []

            class T(lib.Struct, gc=has_gc):
                x: int

                def __del__(self):
                    if not seen:
                        seen.append(self)  # resurrects the first time

            t = T(1)
            del t
            assert len(seen) == 1 and seen[0].x == 1
            seen.clear()


def test_tag_inheritance_and_qualname_match_msgspec():
    def tags(lib):
        class A(lib.Struct, tag=True):
            class Inner(lib.Struct, tag=str.lower):
                pass

        class B(A, tag=None):  # None inherits the tag option
            pass

        class C(A, tag_field="kind"):
            pass

        return [(c.__struct_config__.tag_field, c.__struct_config__.tag) for c in (A, A.Inner, B, C)]

    assert tags(boltwire) == tags(msgspec)


@pytest.mark.parametrize("tag", ["bad", 1.5, 2**63, -(2**63) - 1])
def test_bad_tags_raise_like_msgspec(tag):
    def define(lib):
        return type(lib.Struct)("T", (lib.Struct,), {}, tag=(lambda n: tag) if tag == "bad" and False else tag)

    if tag == "bad":
        define = lambda lib: type(lib.Struct)("T", (lib.Struct,), {}, tag=lambda n: 1.5)  # noqa: E731
    ours, theirs = outcome(lambda: define(boltwire)), outcome(lambda: define(msgspec))
    assert ours[0] == theirs[0]


def test_slots_are_sorted_like_msgspec():
    for lib in LIBS:
        class T(lib.Struct):
            y: float
            x: int = 0

        assert T.__slots__ == ("x", "y")
        assert T.__struct_fields__ == ("y", "x")


def test_mutable_default_message_names_the_risk():
    for lib in LIBS:
        with pytest.raises(TypeError, match="as a default value is unsafe"):
            class T(lib.Struct):
                x: list = [1]


def test_defstruct_matches_msgspec():
    for lib in LIBS:
        Point = lib.defstruct("Point", ["x", ("y", int), ("z", int, 0)], kw_only=True, frozen=None)
        assert Point.__module__ == __name__  # the caller's module
        assert Point.__struct_fields__ == ("x", "y", "z")
        assert not Point.__struct_config__.frozen
        with pytest.raises(TypeError):
            Point(1, 2)  # kw_only: positional arguments refused
        assert lib.defstruct("P", [], module="m").__module__ == "m"
        assert lib.defstruct("P", [], namespace={"f": lambda self: 3})().f() == 3

    for args, kwargs in [((1, []), {}), (("T", 1), {}), (("T", ["x", 1]), {}), (("T", []), {"bases": []}),
                         (("T", []), {"module": 1}), (("T", []), {"namespace": 1})]:
        ours = outcome(lambda: boltwire.defstruct(*args, **kwargs))
        theirs = outcome(lambda: msgspec.defstruct(*args, **kwargs))
        assert ours[0] == theirs[0] == "TypeError", (args, kwargs)


def test_fieldinfo_is_a_struct_like_msgspec():
    for lib in LIBS:
        class T(lib.Struct):
            a: int
            b: list[int] = []

        info = lib.structs.fields(T)
        assert isinstance(type(info[0]), type(lib.Struct))
        assert info[0].required and not info[1].required
        assert info[1].default_factory is list and info[1].default is lib.NODEFAULT
    assert boltwire.structs.FieldInfo.__struct_fields__ == msgspec.structs.FieldInfo.__struct_fields__


@pytest.mark.parametrize(
    "path",
    ["json.encode", "json.decode", "json.Encoder", "json.Decoder", "convert", "structs.replace", "structs.asdict",
     "structs.astuple", "structs.force_setattr", "Raw", "to_builtins"],
)
def test_signatures_match_msgspec(path):
    def resolve(lib):
        obj = lib
        for part in path.split("."):
            obj = getattr(obj, part)
        return obj

    ours = inspect.signature(resolve(boltwire))
    theirs = inspect.signature(resolve(msgspec))
    # boltwire's Decoder has one extra keyword (forbid_unknown_fields); every msgspec parameter is there, with
    # the same kind and default (keyword-only ones in any order).
    def shape(sig, names):
        params = [p for p in sig.parameters.values() if p.name in names]
        positional = [(p.name, p.kind, p.default) for p in params if p.kind != p.KEYWORD_ONLY]
        keyword = {p.name: p.default for p in params if p.kind == p.KEYWORD_ONLY}
        return positional, keyword

    assert shape(ours, theirs.parameters) == shape(theirs, theirs.parameters)


def test_field_signature_and_names():
    params = inspect.signature(boltwire.field).parameters
    assert list(params)[:3] == list(inspect.signature(msgspec.field).parameters)[:3]
    assert params["default"].default is boltwire.NODEFAULT
    assert boltwire.json.encode.__name__ == "encode"
    assert boltwire.json.decode.__name__ == "decode"
    assert boltwire.json.Encoder().encode_into.__text_signature__ == "($self, obj, buffer, offset=0, /)"


def test_msgspec_error_is_the_codec_base():
    assert issubclass(boltwire.DecodeError, boltwire.MsgspecError)
    assert issubclass(boltwire.EncodeError, boltwire.MsgspecError)
    assert issubclass(boltwire.ValidationError, boltwire.MsgspecError)
    with pytest.raises(boltwire.MsgspecError):
        boltwire.json.decode(b"[")


def test_rename_unchanged_names_keep_the_fields_tuple():
    for lib in LIBS:
        class T(lib.Struct, rename="lower"):
            x: int

        class U(lib.Struct):
            x: int = lib.field(name="x")

        assert T.__struct_encode_fields__ is T.__struct_fields__
        assert U.__struct_encode_fields__ is U.__struct_fields__


def test_weakref_struct_collectable():
    class T(boltwire.Struct, weakref=True):
        x: int

    t = T(1)
    ref = weakref.ref(t)
    del t
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("make_default", [
    lambda lib: [1], lambda lib: {"a": 1}, lambda lib: {1}, lambda lib: bytearray(b"x"),
    lambda lib: [], lambda lib: lib.Raw(), lambda lib: type("Unhashable", (), {"__hash__": None})(),
    lambda lib: lib.defstruct("Mutable", ["x"])(1), lambda lib: lib.defstruct("Frozen", ["x"], frozen=True)(1),
], ids=["list", "dict", "set", "bytearray", "empty list", "Raw", "unhashable object", "mutable Struct",
        "frozen Struct"])
def test_default_value_rules_match_msgspec(make_default):
    """Only a non-empty builtin collection or a mutable Struct is refused as a default (msgspec's rule, message
    included); anything else, unhashable or not, is accepted."""
    def define(lib):
        default = make_default(lib)

        class T(lib.Struct):
            x: object = default

        value = T().x
        return "same" if value is default else type(value).__name__

    ours, theirs = outcome(lambda: define(boltwire)), outcome(lambda: define(msgspec))
    if ours[0] == "TypeError":
        ours = (ours[0], ours[1].replace("boltwire", "msgspec"))
    assert ours == theirs


def _replace_outcomes(lib):
    import gc

    calls = []

    class Point(lib.Struct):
        x: int
        y: list[int] | None

        def __post_init__(self):
            calls.append(self.x)

    p = Point(1, None)
    out = [gc.is_tracked(lib.structs.replace(p)), gc.is_tracked(lib.structs.replace(p, y=[1])),
           gc.is_tracked(lib.structs.replace(Point(1, [2]), y=None)), list(calls)]
    del p.x
    out.append(outcome(lambda: lib.structs.replace(p)))
    out.append(outcome(lambda: lib.structs.replace(p, y=None)))
    out.append(outcome(lambda: lib.structs.replace(p, x=3)))
    out.append(outcome(lambda: lib.structs.replace(p, z=3)))
    return out


def test_replace_matches_msgspec():
    """A new instance: unset old fields are an AttributeError, GC tracking follows the new values, and
    __post_init__ runs again."""
    ours, theirs = _replace_outcomes(boltwire), _replace_outcomes(msgspec)
    assert ours[:4] == theirs[:4]
    assert [o[0] for o in ours[4:]] == [o[0] for o in theirs[4:]]
    assert ours[4][1] == theirs[4][1] == "Struct field 'x' is unset"


CLASSVAR_SOURCES = {
    "imported": "from typing import ClassVar\nclass Ex(LIB.Struct):\n    a: int\n    cv: ClassVar[int] = 1\n    cv0: ClassVar\n",
    "module attr": "import typing\nclass Ex(LIB.Struct):\n    a: int\n    cv: typing.ClassVar[int] = 1\n",
    "shadowed name": "import typing\nClassVar = typing.List\nclass Ex(LIB.Struct):\n    a: ClassVar[int]\n    cv: typing.ClassVar[int] = 1\n",
    "shadowed module": "from typing import ClassVar, List\nclass typing:\n    ClassVar = List\n"
                       "class Ex(LIB.Struct):\n    a: typing.ClassVar[int]\n    cv: ClassVar[int] = 1\n",
    "lookalike": "from typing import ClassVar, List\nClassVariable = List\n"
                 "class Ex(LIB.Struct):\n    a: ClassVariable[int]\n    cv: ClassVar[int] = 1\n",
    "not imported": "class Ex(LIB.Struct):\n    a: 'ClassVar[int]' = 1\n",
    "typing not imported": "class Ex(LIB.Struct):\n    a: 'typing.ClassVar[int]'\n",
    "typing without ClassVar": "class typing:\n    pass\nclass Ex(LIB.Struct):\n    a: 'typing.ClassVar[int]' = 1\n",
    "failing lookup": "class NS:\n    @property\n    def ClassVar(self):\n        raise RuntimeError('lookup failed')\n"
                      "typing = NS()\nclass Ex(LIB.Struct):\n    a: 'typing.ClassVar[int]'\n",
}


def _classvar_outcome(lib, source, future):
    import sys
    import types

    name = f"_bw_classvar_{lib.__name__}"
    mod = types.ModuleType(name)
    mod.LIB = lib
    sys.modules[name] = mod
    try:
        code = ("from __future__ import annotations\n" if future else "") + source
        exec(compile(code, name, "exec"), mod.__dict__)
        return ("ok", mod.Ex.__struct_fields__, getattr(mod.Ex, "cv", None), hasattr(mod.Ex, "cv0"))
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))
    finally:
        del sys.modules[name]


@pytest.mark.parametrize("future", [False, True])
@pytest.mark.parametrize("case", list(CLASSVAR_SOURCES))
def test_classvar_annotations_resolved_in_the_module_like_msgspec(case, future):
    ours, theirs = (_classvar_outcome(lib, CLASSVAR_SOURCES[case], future) for lib in LIBS)
    assert ours == theirs


@pytest.mark.parametrize("module", ["not_a_loaded_module", []])
def test_classvar_string_needs_a_loaded_hashable_module(module):
    def make(lib):
        return type(lib.Struct)("Ex", (lib.Struct,), {"__module__": module, "__annotations__": {"cv": "ClassVar[int]"}, "cv": 1})

    ours, theirs = (outcome(lambda: make(lib)) for lib in LIBS)
    assert ours[0] == theirs[0] != "ok"


def _class_outcome(lib, body, **options):
    def make():
        ns = {}
        exec(body, {"Struct": lib.Struct}, ns)
        return "ok"
    return outcome(make)


@pytest.mark.parametrize("body", [
    "class T(Struct):\n    __weakref__: int\n",
    "class T(Struct):\n    __dict__: int\n",
    "class T(Struct, order=True, eq=False):\n    pass\n",
    "class T(Struct, cache_hash=True):\n    pass\n",
    "class Base:\n    pass\nclass T(Struct, Base, gc=False):\n    pass\n",
    "class Base:\n    __slots__ = ()\nclass T(Struct, Base, gc=False):\n    pass\n",
])
def test_class_definition_errors_match_msgspec(body):
    ours, theirs = (_class_outcome(lib, body) for lib in LIBS)
    assert ours == theirs


@pytest.mark.parametrize("value", [sys.maxsize + 1, -sys.maxsize - 2, 10**400, -(10**400), -1, -sys.maxsize - 1])
@pytest.mark.parametrize("field", ["min_length", "max_length"])
def test_meta_length_range_errors_match_msgspec(field, value):
    ours, theirs = (outcome(lambda: lib.Meta(**{field: value})) for lib in LIBS)
    assert ours[0] == theirs[0] == "ValueError"
    assert ours[1].split(",")[0] == theirs[1].split(",")[0]


def test_fields_of_a_non_struct_names_the_accepted_kinds():
    ours, theirs = (outcome(lambda: lib.structs.fields(1)) for lib in LIBS)
    assert ours[0] == theirs[0] == "TypeError"
    assert theirs[1] in ours[1]


@pytest.mark.parametrize("call", [
    lambda lib: lib.json.encode(), lambda lib: lib.json.decode(), lambda lib: lib.msgpack.encode(),
    lambda lib: lib.msgpack.decode(), lambda lib: lib.json.encode(1, 2), lambda lib: lib.msgpack.decode(b"", b""),
    lambda lib: lib.msgpack.Encoder().encode_into(1), lambda lib: lib.msgpack.Encoder().encode_into(1, bytearray(), 0, 0),
])
def test_positional_count_errors_match_msgspec(call):
    ours, theirs = (outcome(lambda: call(lib)) for lib in LIBS)
    assert ours == theirs


@pytest.mark.parametrize("body", [
    "class Mixin:\n    def __init__(self):\n        pass\nclass T(Struct, Mixin):\n    pass\n",
    "class Mixin:\n    def __new__(cls):\n        pass\nclass T(Struct, Mixin):\n    pass\n",
    "class T(Struct, Exception):\n    pass\n",
    "class Mixin:\n    def method(self):\n        return 1\nclass T(Struct, Mixin):\n    x: int\n",
    "import abc\nclass T(Struct, abc.ABC):\n    x: int\n",
])
def test_mixin_bases_with_their_own_init_or_new_are_refused(body):
    ours, theirs = (_class_outcome(lib, body) for lib in LIBS)
    assert ours[0] == theirs[0]


@pytest.mark.parametrize("base", [
    "class Base(Exception):\n    pass\n", "class Base(int):\n    pass\n", "class Base(dict):\n    pass\n",
    "class Base(ValueError):\n    extra = 1\n",
])
def test_bases_with_a_builtin_layout_are_refused(base):
    # msgspec accepts a Python subclass of a builtin type as a Struct base, and its instances crash (segfault):
    # the builtin's C layout sits under the Struct's slots. boltwire refuses it (a deliberate difference).
    from boltwire import Struct

    ns: dict = {}
    exec(base, {}, ns)
    with pytest.raises(TypeError, match="instance layout of the builtin type"):
        class T(Struct, ns["Base"]):
            a: int = 1


def test_builtin_bases_with_constructors_are_refused_on_every_version():
    # From 3.12 on a static builtin type's tp_dict is NULL; the check must not depend on it.
    from boltwire import Struct

    for base, method in [(Exception, "__init__"), (dict, "__init__"), (int, "__new__"), (KeyError, "__init__")]:
        with pytest.raises(TypeError, match=f"cannot define {method}"):
            class T(Struct, base):
                pass


def test_structmeta_used_directly_gives_struct_behaviour():
    """Options apply as in msgspec (frozen refuses assignment); boltwire also gives ==, repr and copy, where
    msgspec's metaclass-only classes keep object's (a documented difference)."""
    def shared(lib):
        class C(metaclass=lib.StructMeta, frozen=True):
            x: int
        c = C(x=1)
        calls = [lambda: setattr(c, "x", 2), lambda: isinstance(c, lib.Struct), lambda: lib.json.encode(c),
                 lambda: lib.structs.asdict(c), lambda: C.__struct_config__.frozen]
        return [outcome(call) for call in calls], C

    ours, C = shared(boltwire)
    assert ours[0][0] == "AttributeError"
    assert [o if o[0] == "ok" else o[0] for o in ours] == [o if o[0] == "ok" else o[0] for o in shared(msgspec)[0]]
    assert C(1) == C(1) and repr(C(1)) == "C(x=1)" and hash(C(1)) == hash(C(1))


def test_unset_fields_are_attribute_errors_like_msgspec():
    import copy

    def run(lib):
        ns = {}
        exec("class M(Struct):\n    x: int\n    y: int\n    z: str = 'd'\n", {"Struct": lib.Struct}, ns)
        t = ns["M"](1, 2)
        del t.y
        calls = [lambda: repr(t), lambda: copy.copy(t), lambda: lib.structs.asdict(t), lambda: lib.structs.astuple(t),
                 lambda: list(t.__rich_repr__()), lambda: t == ns["M"](1, 2)]
        return [outcome(call) for call in calls]

    ours, theirs = run(boltwire), run(msgspec)
    assert ours == theirs
    assert all(o[0] == "AttributeError" for o in ours)


def test_msgpack_and_structmeta_signatures_match_msgspec():
    def sigs(lib):
        objs = [lib.msgpack.Ext, lib.msgpack.Encoder().encode, lib.msgpack.Encoder().encode_into,
                lib.msgpack.Decoder().decode]
        return [str(inspect.signature(o)) for o in objs] + [lib.StructMeta.__text_signature__]

    assert sigs(boltwire) == sigs(msgspec)


def test_abstract_instantiation_message_matches_msgspec():
    import abc

    def run(lib):
        class Meta(lib.StructMeta, abc.ABCMeta):
            pass

        class Base(lib.Struct, metaclass=Meta):
            @abc.abstractmethod
            def b(self): ...

            @abc.abstractmethod
            def a(self): ...

            @abc.abstractmethod
            def c(self): ...

        return outcome(Base)

    ours, theirs = run(boltwire), run(msgspec)
    assert ours == theirs
    assert ours[1].endswith("abstract methods 'a', 'b', 'c'")


def test_hash_includes_the_class_like_msgspec():
    hashes = {}
    for lib in LIBS:
        one = lib.defstruct("One", ["x"], frozen=True)
        two = lib.defstruct("Two", ["x"], frozen=True)
        empty1 = lib.defstruct("E1", [], frozen=True)
        empty2 = lib.defstruct("E2", [], frozen=True)
        hashes[lib] = [hash(one(1)) == hash(one(1)), hash(one(1)) == hash(two(1)), hash(empty1()) == hash(empty2()),
                       hash(empty1()) == hash(empty1())]
    assert hashes[boltwire] == hashes[msgspec] == [True, False, False, True]


@pytest.mark.parametrize("frozen", [False, True])
def test_ne_uses_an_overridden_eq_like_msgspec(frozen):
    def run(lib):
        class Ex(lib.Struct, frozen=frozen):
            a: int
            b: int

            def __eq__(self, other):
                return self.a == other.a

        class Both(lib.Struct):
            a: int

            def __eq__(self, other):
                return True

            def __ne__(self, other):
                return "own"

        x, y, z = Ex(1, 2), Ex(1, 3), Ex(2, 3)
        return [x == y, x != y, x == z, x != z, Both(1) != Both(2), Both(1) == Both(2)]

    assert run(boltwire) == run(msgspec) == [True, False, False, True, "own", True]


@pytest.mark.parametrize("call", [
    lambda lib: lib.defstruct(1),
    lambda lib: lib.defstruct("T"),
    lambda lib: lib.defstruct(1, ["x"]),
    lambda lib: lib.defstruct("T", 1),
    lambda lib: lib.defstruct("T", ["x", 1]),
    lambda lib: lib.defstruct("T", [], bases=[]),
    lambda lib: lib.defstruct("T", [], module=1),
    lambda lib: lib.defstruct("T", [], namespace=1),
])
def test_defstruct_argument_errors_match_msgspec(call):
    assert outcome(lambda: call(boltwire)) == outcome(lambda: call(msgspec))


@pytest.mark.parametrize("name", ["replace", "asdict", "astuple"])
def test_structs_functions_on_a_non_struct_name_the_package(name):
    ours, theirs = (outcome(lambda: getattr(lib.structs, name)(1)) for lib in LIBS)
    assert ours[0] == theirs[0] == "TypeError"
    assert ours[1] == theirs[1].replace("msgspec.", "boltwire.")


def test_redefined_field_keeps_its_inherited_encode_name_like_msgspec():
    def run(lib):
        class Base(lib.Struct):
            x: int = lib.field(name="_x")

        class Renamed(Base):
            x: int = lib.field(name="x")

        class Default(Base):
            x: int = 1

        class Bare(Base):
            x: int

        class Factory(Base):
            x: list = lib.field(default_factory=list)

        classes = (Renamed, Default, Bare, Factory)
        return [c.__struct_encode_fields__ for c in classes] + [lib.json.encode(Default())]

    assert run(boltwire) == run(msgspec) == [("x",), ("_x",), ("_x",), ("_x",), b'{"_x":1}']


@pytest.mark.parametrize("name", ["__weakref__", "__dict__", "__msgspec_cached_hash__"])
def test_reserved_field_names_refused_like_msgspec(name):
    ours, theirs = (outcome(lambda: type(lib.Struct)("T", (lib.Struct,), {"__annotations__": {name: int}}))
                    for lib in LIBS)
    assert ours == theirs
    assert ours[0] == "TypeError"


def test_cache_hash_slot_has_msgspecs_name():
    slots = [lib.defstruct("T", ["x"], frozen=True, cache_hash=True).__slots__ for lib in LIBS]
    assert slots[0] == slots[1]


def test_class_used_inside_its_own_init_subclass_is_refused_like_msgspec():
    """The class is not finished while __init_subclass__ runs: building a plan of it (decode, convert, inspect)
    is a ValueError as in msgspec (boltwire crashed here), and it works once the class statement is done."""
    def run(lib):
        import importlib
        importlib.import_module(lib.__name__ + ".msgpack")
        results = []

        class Base(lib.Struct):
            def __init_subclass__(cls):
                calls = [cls, lambda: cls(1), lambda: lib.json.Decoder(cls), lambda: lib.json.decode(b'{"x": 1}', type=cls),
                         lambda: lib.msgpack.decode(b"\x81\xa1x\x01", type=cls), lambda: lib.convert({"x": 1}, cls),
                         lambda: lib.inspect.type_info(cls)]
                results.extend(outcome(c)[0] for c in calls)

        class Sub(Base):
            x: int

        results.append(lib.json.decode(b'{"x": 1}', type=Sub) == Sub(1))
        return results

    ours, theirs = run(boltwire), run(msgspec)
    assert ours == theirs
    assert ours[2:] == ["ValueError"] * 5 + [True]
