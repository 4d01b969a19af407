"""A PEP 517 build backend for rooflab_record, standard library only.

pip runs it from this folder (pyproject.toml's backend-path), so installing needs no setuptools or
wheel from a package index. It writes a pure-Python wheel (PEP 427: the package's files, METADATA,
WHEEL, entry_points.txt and RECORD with sha256 digests), an editable wheel (PEP 660: a .pth file
naming this folder) and an sdist (PEP 517: a tar.gz with PKG-INFO). The version is read from
rooflab_record/__init__.py (__version__), the one place it is written.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "rooflab_record"
DIST = "rooflab_record"  # the normalised distribution name in file names
NAME = "rooflab-record"
SUMMARY = "Time an attention callable (torch SDPA or your own kernel) and write a rooflab record"
SCRIPTS = {"rooflab-record": "rooflab_record.command:main"}


def _version():
    with open(os.path.join(HERE, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M)
    if not m:
        raise RuntimeError(f"{PACKAGE}/__init__.py: no __version__ = \"...\" line")
    return m.group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3.9\n")


def _sources():
    """(archive name, absolute path) of every .py file of the package, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(root, f)
                out.append((os.path.relpath(p, HERE).replace(os.sep, "/"), p))
    return out


def _dist_info_files():
    scripts = "".join(f"{k} = {v}\n" for k, v in SCRIPTS.items())
    return {
        "METADATA": _metadata(),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: rooflab_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "entry_points.txt": f"[console_scripts]\n{scripts}",
    }


def _write_wheel(path, entries):
    """entries: (archive name, bytes); RECORD is added last with each file's digest and size."""
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        rec_name = f"{DIST}-{_version()}.dist-info/RECORD"
        record.append(f"{rec_name},,")
        z.writestr(rec_name, "\n".join(record) + "\n")


def _wheel_name():
    return f"{DIST}-{_version()}-py3-none-any.whl"


def _info_entries():
    info = f"{DIST}-{_version()}.dist-info"
    return [(f"{info}/{k}", v.encode()) for k, v in _dist_info_files().items()]


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f"{DIST}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for k, v in _dist_info_files().items():
        with open(os.path.join(metadata_directory, info, k), "w", encoding="utf-8") as f:
            f.write(v)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = []
    for name, p in _sources():
        with open(p, "rb") as f:
            entries.append((name, f.read()))
    _write_wheel(os.path.join(wheel_directory, _wheel_name()), entries + _info_entries())
    return _wheel_name()


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    pth = (HERE + "\n").encode()
    _write_wheel(os.path.join(wheel_directory, _wheel_name()),
                 [(f"{DIST}.pth", pth)] + _info_entries())
    return _wheel_name()


def build_sdist(sdist_directory, config_settings=None):
    base = f"{DIST}-{_version()}"
    name = f"{base}.tar.gz"
    files = [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
             ("_build/rooflab_build.py", os.path.abspath(__file__))] + _sources()
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for arc, p in files:
            t.add(p, arcname=f"{base}/{arc}")
        data = _metadata().encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    return name
