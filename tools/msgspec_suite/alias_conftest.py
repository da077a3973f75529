# tools/msgspec_suite/alias_conftest.py: installed as conftest.py beside msgspec's tests/unit by run.py; maps `msgspec`
# and its submodules to boltwire before any test module imports them. MSGSPEC_REAL=1 runs them against msgspec itself.
import os
import sys

if os.environ.get("MSGSPEC_REAL") != "1":
    import boltwire
    import boltwire.inspect
    import boltwire.json
    import boltwire.msgpack
    import boltwire.structs
    import boltwire.toml
    import boltwire.yaml

    sys.modules["msgspec"] = boltwire
    # Without this, `from msgspec._core import ...` would load boltwire's extension a second time under that name.
    sys.modules["msgspec._core"] = boltwire._core
    for name in ("json", "msgpack", "structs", "inspect", "toml", "yaml"):
        sys.modules["msgspec." + name] = getattr(boltwire, name)
