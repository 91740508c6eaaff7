"""The default embedder: ONNX Runtime + the `tokenizers` fast tokenizer + numpy, no torch.

Computes what sentence-transformers computes for the same folder (truncation at its ``max_seq_length``, mean
pooling over the attention mask, L2 normalisation), on the graph ``onnx_cache`` exported from those weights:
fp32 gives the torch vectors to float rounding; int8 (the default) is faster and stays close to them (figures in
bench/HISTORY.md § Embedder).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from memories.embedding.source import model_display_name, read_config


class OnnxEmbedder:
    def __init__(
        self,
        model_path: str | None = None,
        *,
        variant: str = "int8",
        cache_root: Path,
        threads: int = 1,
        batch_size: int = 32,
        max_batch_tokens: int = 512,
    ) -> None:
        if variant not in ("int8", "fp32"):
            raise ValueError(f"unknown ONNX variant {variant!r} (int8 or fp32)")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # no rayon pool: we fork (gunicorn, celery)
        import onnxruntime
        from tokenizers import Tokenizer

        from memories.embedding.onnx_cache import ensure_onnx_model
        from memories.embedding.source import resolve_source

        source = resolve_source(model_path)
        config = read_config(source)
        if config.pooling != "mean":
            raise ValueError(
                f"the ONNX embedder serves mean pooling only, {source} uses {config.pooling!r}: "
                "set ORGMEMORY_EMBEDDER=sentence-transformers"
            )
        model_file = ensure_onnx_model(source=source, cache_root=cache_root, variant=variant)

        options = onnxruntime.SessionOptions()
        # one intra-op thread per process by default: processes (gunicorn workers, celery) are the parallelism,
        # and a spinning thread pool stalls under contention, as torch's OpenMP pool did
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

        tokenizer = Tokenizer.from_file(str(model_file.parent / "tokenizer.json"))
        # the packaged tokenizer.json pads and truncates at 128; sentence-transformers truncates at its own
        # max_seq_length (256 for MiniLM) and pads per batch — we pad ourselves, per length-sorted batch
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=config.max_seq_length)
        self._tokenizer = tokenizer
        self._batch_size = max(1, batch_size)
        self.max_batch_tokens = max_batch_tokens
        self.variant = variant
        self.kind = f"onnx-{variant}"
        self.name = f"{model_display_name(source)}/onnx-{variant}"
        self.dimensions = config.dimensions or int(self._session.get_outputs()[0].shape[-1])
        self.model_file = model_file

    def _batches(self, order, lengths):
        return _token_budget_batches(order, lengths, max_rows=self._batch_size, max_tokens=self.max_batch_tokens)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        if not texts:
            return []
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(encodings))
        # sort by length so each batch pads to its own longest text (padding is what made batching useless);
        # the stable sort keeps equal lengths in input order, and the result goes back to input order
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self.dimensions), dtype=np.float32)
        for batch in self._batches(order, lengths):
            width = int(lengths[batch].max())
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, index in enumerate(batch):
                encoding = encodings[index]
                ids[row, : lengths[index]] = encoding.ids
                mask[row, : lengths[index]] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feed)[0]
            out[batch] = mean_pool_normalise(hidden, mask)
        return out.tolist()

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """MiniLM embeds questions as it embeds stored texts (it was trained without prefixes)."""
        return self.embed(texts)


def _token_budget_batches(order, lengths, *, max_rows: int, max_tokens: int):
    """Consecutive runs of the length-sorted ``order``: at most ``max_rows`` texts and, once a batch has more
    than one text, at most ``max_tokens`` padded tokens (rows × longest). Long texts go in small batches, whose
    attention scores stay in the CPU cache; short texts in large ones, where batching pays. A bounded token
    budget embeds more texts per CPU-second than no budget for both short texts and long chunks (bench/HISTORY.md
    § Embedder)."""
    batch: list[int] = []
    for index in order:
        width = int(lengths[index])  # sorted ascending: the newest text is the longest of its batch
        if batch and (len(batch) >= max_rows or (len(batch) + 1) * width > max_tokens):
            yield batch
            batch = []
        batch.append(int(index))
    if batch:
        yield batch


def mean_pool_normalise(hidden, mask):
    """sentence-transformers' mean pooling (masked mean, token count clamped at 1e-9) followed by its
    Normalize module (x / max(‖x‖, 1e-12))."""
    import numpy as np

    weights = mask[..., None].astype(hidden.dtype)
    summed = (hidden * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.clip(norms, 1e-12, None)
