"""Build, once, the ONNX models the default embedder serves: the local sentence-transformers weights exported to
ONNX (fp32) and dynamically quantised to int8, cached under ``$ORGMEMORY_DATA_DIR/models/``.

Nothing is downloaded: the export reads the packaged weights. The cache folder is named by a checksum of the
source files and of the export settings, so new weights or a changed export build a new folder instead of
serving a stale one. A manifest records each file's sha256; a file that no longer matches (truncated copy, disk
error) is rebuilt. Concurrent first starts (several gunicorn workers) serialise on a file lock and the build
happens in a temporary folder renamed into place, so a reader never sees half a model.

The graph is written from the safetensors weights by ``onnx_export`` (no torch: the serving install does not carry
it); only the build imports onnx and the quantiser, in a child process.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from memories.embedding.source import model_display_name

logger = logging.getLogger(__name__)

FP32_FILE = "model.onnx"
INT8_FILE = "model_int8.onnx"
MANIFEST_FILE = "manifest.json"

# Everything that decides the bytes we write. Bump "format" whenever the export code changes its output.
EXPORT_SETTINGS = {
    "format": 3,
    "exporter": "memories.embedding.onnx_export (onnx.helper from the safetensors weights)",
    "opset": 17,
    # per-channel symmetric int8 weights (QInt8), dynamic uint8 activations: what sentence-transformers'
    # avx512_vnni / arm64 configurations use. Per-channel weights stay much closer to the torch vectors than
    # per-tensor ones at the same speed (bench/HISTORY.md § Embedder).
    "int8": {"weight_type": "QInt8", "per_channel": True, "reduce_range": False},
}

# The files of a sentence-transformers folder that change what the model computes.
_SOURCE_FILES = (
    "config.json",
    "model.safetensors",
    "pytorch_model.bin",
    "tokenizer.json",
    "sentence_bert_config.json",
    "modules.json",
    "1_Pooling/config.json",
)


class ExportError(RuntimeError):
    pass


def source_checksum(source: Path) -> str:
    digest = hashlib.sha256()
    found = False
    for relative in _SOURCE_FILES:
        path = source / relative
        if path.is_file():
            found = True
            digest.update(relative.encode() + b"\0")
            digest.update(_file_sha256(path).encode())
    if not found or not (source / "tokenizer.json").is_file():
        raise ExportError(f"{source} is not a sentence-transformers model folder with a tokenizer.json")
    return digest.hexdigest()


def cache_key(source: Path) -> str:
    settings = json.dumps(EXPORT_SETTINGS, sort_keys=True)
    return hashlib.sha256(f"{source_checksum(source)}\0{settings}".encode()).hexdigest()


def cache_folder(*, source: Path, cache_root: Path, key: str | None = None) -> Path:
    key = key or cache_key(source)
    return cache_root / f"{model_display_name(source)}-onnx-{key[:16]}"


def ensure_onnx_model(
    *, source: Path, cache_root: Path, variant: str = "int8", progress: Callable[[str], None] | None = None
) -> Path:
    """The path of the ``variant`` ("int8" or "fp32") ONNX file for ``source``, building the cache if it is
    missing or does not match its manifest. Safe to call from several processes at once."""
    say = progress or logger.info
    filename = INT8_FILE if variant == "int8" else FP32_FILE
    key = cache_key(source)
    target = cache_folder(source=source, cache_root=cache_root, key=key)
    if _valid(target, key=key, filename=filename):
        return target / filename
    cache_root.mkdir(parents=True, exist_ok=True)
    with _locked(cache_root / f".{target.name}.lock"):
        if _valid(target, key=key, filename=filename):  # another process built it while we waited
            return target / filename
        if target.exists():
            say(f"embedder: the ONNX cache {target} does not match its manifest; rebuilding it")
            _remove(target, cache_root)
        for leftover in cache_root.glob(f".{target.name}.*"):  # a build killed midway (we hold the lock)
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
        started = time.perf_counter()
        say(f"embedder: exporting {source} to ONNX (fp32 + int8) under {target}, once (~10 s)…")
        building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=cache_root))
        building.chmod(0o755)  # mkdtemp makes it private; the cache is read by every serving process
        try:
            _export_in_child(source=source, folder=building)
            manifest = {
                "key": key,
                "source": str(source),
                "export_settings": EXPORT_SETTINGS,
                "files": {name: _file_sha256(building / name) for name in (FP32_FILE, INT8_FILE, "tokenizer.json")},
            }
            (building / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True))
            os.rename(building, target)  # atomic on one file system: readers see no model or a whole one
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
        say(f"embedder: ONNX models ready in {time.perf_counter() - started:.1f} s")
    return target / filename


def _valid(target: Path, *, key: str, filename: str) -> bool:
    try:
        manifest = json.loads((target / MANIFEST_FILE).read_text())
        expected = manifest["files"]
        if manifest.get("key") != key:
            return False
        # the served file and the tokenizer are checked on every start (cheap next to loading them); fp32 only
        # when it is served
        return all(_file_sha256(target / name) == expected[name] for name in (filename, "tokenizer.json"))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _export_in_child(*, source: Path, folder: Path) -> None:
    """Export in a child process, so that the serving process never holds the builder's copies of the weights
    and the quantiser (paid once here instead of in every worker that finds no cache)."""
    project = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [project, os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "memories.embedding.onnx_cache", str(source), str(folder)]
    completed = subprocess.run(command, env=env, check=False)
    if completed.returncode != 0:
        raise ExportError(f"exporting {source} to ONNX failed (exit status {completed.returncode}; see above)")


def _export(*, source: Path, folder: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from memories.embedding.onnx_export import build_model, check_against_numpy

    onnx.save(build_model(source, opset=EXPORT_SETTINGS["opset"]), str(folder / FP32_FILE))
    # the graph must reproduce a plain numpy forward pass of the same weights on a padded batch
    error = check_against_numpy(source, folder / FP32_FILE)
    if error > 1e-3:
        raise ExportError(f"the ONNX graph does not reproduce the reference forward pass (max abs error {error:.2e})")
    int8 = EXPORT_SETTINGS["int8"]
    with _root_logging_at(logging.ERROR):  # the quantiser logs one INFO line per tensor on the root logger
        quantize_dynamic(
            str(folder / FP32_FILE),
            str(folder / INT8_FILE),
            weight_type=getattr(QuantType, int8["weight_type"]),
            per_channel=int8["per_channel"],
            reduce_range=int8["reduce_range"],
        )
    shutil.copyfile(source / "tokenizer.json", folder / "tokenizer.json")


def _remove(target: Path, cache_root: Path) -> None:
    # rename first so that a reader never opens a half-deleted folder under the real name
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.stale.", dir=cache_root))
    os.rename(target, aside / "old")
    shutil.rmtree(aside, ignore_errors=True)


@contextlib.contextmanager
def _root_logging_at(level: int) -> Iterator[None]:
    root = logging.getLogger()
    previous = root.level
    root.setLevel(max(level, previous))
    try:
        yield
    finally:
        root.setLevel(previous)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with open(path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


if __name__ == "__main__":  # the child of _export_in_child: python -m memories.embedding.onnx_cache SOURCE FOLDER
    _export(source=Path(sys.argv[1]), folder=Path(sys.argv[2]))
