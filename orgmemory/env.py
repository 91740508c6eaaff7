"""Small, strict readers for settings that come from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(url: str) -> dict:
    """Turn ``postgres[ql]://user:pass@host:port/name?opt=v`` into a Django DATABASES entry.

    A Unix socket is given as ``?host=/path/to/dir`` (libpq style), which is what the embedded server returns.
    """
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgresql:// URL, got scheme {parsed.scheme!r}")
    query = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
    host = query.pop("host", None) or (unquote(parsed.hostname) if parsed.hostname else "")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parsed.path.lstrip("/")) or "postgres",
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": host,
        "PORT": str(parsed.port or ""),
        "OPTIONS": query,
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


# --- the development run that `make run` set up ---------------------------------------------------------------

LOCAL_RUN_FILE = "local-run.env"
_LOCAL_RUN_KEYS = {"ORGMEMORY_ENV", "ORGMEMORY_DATA_DIR"}


def local_run_file(base_dir: Path, environ: Mapping[str, str] = os.environ) -> Path:
    """Where ``make run`` records the development environment it set up: in ``$ORGMEMORY_DATA_DIR`` when that is
    set, else in the project's default data folder (which then also points at a custom data folder)."""
    data_dir = environ.get("ORGMEMORY_DATA_DIR")
    return Path(data_dir or base_dir / ".orgmemory") / LOCAL_RUN_FILE


def write_local_run(*, base_dir: Path, data_dir: Path) -> list[Path]:
    """Record that ``make run`` set up a development environment on ``data_dir``; returns the files written."""
    data_dir = Path(data_dir).resolve()
    text = (
        "# written by `make run`: manage.py uses it when ORGMEMORY_ENV is unset\n"
        f"ORGMEMORY_ENV=development\nORGMEMORY_DATA_DIR={data_dir}\n"
    )
    written = []
    for folder in dict.fromkeys([data_dir, Path(base_dir).resolve() / ".orgmemory"]):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LOCAL_RUN_FILE).write_text(text)
        written.append(folder / LOCAL_RUN_FILE)
    return written


def apply_local_run(base_dir: Path, environ: MutableMapping[str, str] = os.environ) -> Path | None:
    """Let a management command run as pasted on a ``make run`` machine: when ``ORGMEMORY_ENV`` is unset and
    ``make run`` left its record, take the development mode and data folder from it. Without the record nothing
    changes, so production (the default) still fails closed. Returns the file applied, if any."""
    if environ.get("ORGMEMORY_ENV", "").strip():
        return None
    path = local_run_file(base_dir, environ)
    if not path.is_file():
        return None
    values = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        if not sep or name not in _LOCAL_RUN_KEYS:
            raise ImproperlyConfigured(f"{path}:{number}: expected ORGMEMORY_ENV=… or ORGMEMORY_DATA_DIR=…")
        values[name] = value
    if values.get("ORGMEMORY_ENV") != "development":  # the record only ever stands for a development run
        raise ImproperlyConfigured(f"{path} does not record a development run; set ORGMEMORY_ENV explicitly")
    environ["ORGMEMORY_ENV"] = "development"
    if values.get("ORGMEMORY_DATA_DIR"):
        environ.setdefault("ORGMEMORY_DATA_DIR", values["ORGMEMORY_DATA_DIR"])
    return path


if __name__ == "__main__":  # `make run`: python -m orgmemory.env BASE_DIR DATA_DIR
    import sys

    write_local_run(base_dir=Path(sys.argv[1]), data_dir=Path(sys.argv[2]))
