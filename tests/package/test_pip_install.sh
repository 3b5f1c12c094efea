#!/usr/bin/env bash
# ctest client.pip_install: `pip install clients/python` (offline, no build isolation: the
# interpreter's own setuptools) into a scratch folder; the package imports from there, is typed
# (py.typed) and carries symsim's version. Skipped (77) where pip, setuptools or wheel is missing.
# Usage: test_pip_install.sh PYTHON SOURCE_DIR WORK VERSION
set -euo pipefail
python=$1 source_dir=$2 work=$3 version=$4
if ! "$python" -c "import setuptools, wheel, pip" 2>/dev/null; then
  echo "SKIPPED: $python has no pip, setuptools or wheel (Debian: apt-get install python3-pip)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
cp -R "$source_dir/clients/python" "$work/src"  # the build writes next to the sources
"$python" -m pip install --quiet --no-build-isolation --no-index --no-deps --disable-pip-version-check \
    --target "$work/site" "$work/src"
PYTHONPATH="$work/site" PYTHONDONTWRITEBYTECODE=1 "$python" - "$work/site" "$version" <<'PY'
import importlib.metadata, os, sys
site, version = sys.argv[1], sys.argv[2]
import symsim_client
assert os.path.dirname(symsim_client.__file__) == os.path.join(site, "symsim_client"), symsim_client.__file__
assert os.path.exists(os.path.join(site, "symsim_client", "py.typed")), "py.typed not installed"
dist = importlib.metadata.distribution("symsim-client")
assert dist.version == version, f"pyproject.toml says {dist.version}, symsim is {version}"
assert symsim_client.parse_endpoint("tcp:127.0.0.1:7070") == ("tcp", ("127.0.0.1", 7070))
print(f"symsim-client {dist.version} installed and typed")
PY
rm -rf "$work"
