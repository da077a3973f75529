#!/usr/bin/env bash
# bench/lothc_venv.sh: make the venv the HTTP race runs lothc's rows in (lothc needs Python >= 3.13).
#
#   bench/lothc_venv.sh VENV [PYTHON]
#
# PYTHON (optional) is tried first, then pyenv's 3.13+ versions (newest first), then python3.14 / python3.13 /
# python3 on PATH. Whatever fails is written to VENV.missing, which bench/bench_http.py prints in lothc's rows;
# the script itself exits 0 so that the rest of `make bench` still runs.
set -u
venv=$1
wanted=${2:-}
missing="$venv.missing"
rm -f "$missing"

fail() {
    echo "$1" >"$missing"
    echo "bench: lothc rows will not run: $1" >&2
    exit 0
}

is_313() { [ -n "$1" ] && "$1" -c 'import sys; sys.exit(sys.version_info < (3, 13))' >/dev/null 2>&1; }

if [ -x "$venv/bin/python" ] && is_313 "$venv/bin/python" && "$venv/bin/python" -c "import lothc, msgspec, pydantic" 2>/dev/null; then
    exit 0
fi

root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
candidates=("$wanted")
# pyenv's interpreters, newest first; `sort -V` orders 3.13.10 after 3.13.9.
while read -r p; do candidates+=("$p"); done < <(ls -d "$root"/versions/3.1[3-9]*/bin/python3 2>/dev/null | sort -V -r)
for name in python3.14 python3.13 python3; do candidates+=("$(command -v "$name" 2>/dev/null)"); done

python=""
for p in "${candidates[@]}"; do
    if is_313 "$p"; then python=$p; break; fi
done
[ -n "$python" ] || fail "no Python >= 3.13 found (lothc needs it; tried LOTHC_PYTHON, $root/versions/3.13*, python3.13)"

rm -rf "$venv"
"$python" -m venv "$venv" || fail "could not make a venv with $python"
pip_install() { "$venv/bin/python" -m pip install -q "$@" 2>&1 | grep -v "^WARNING: Location" >&2; }
pip_install "lothc[msgspec,pydantic]"
"$venv/bin/python" -c "import lothc, msgspec, pydantic" 2>/dev/null || fail "pip could not install lothc[msgspec,pydantic] into $venv"
pip_install uvloop  # for --uvloop only; its absence is reported by the race, not here
echo "bench: lothc $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("lothc"))') in $venv ($("$venv/bin/python" -V))"
