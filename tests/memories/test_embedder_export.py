"""The ONNX graph is written from the safetensors weights without torch, and serves the same vectors as the
graph transformers' TorchScript exporter produced from the same weights (the export of earlier releases, kept
here as the reference; it needs the `reference` extra, which CI installs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import onnxruntime
import pytest

from memories.embedding import onnx_cache
from memories.embedding.onnx_backend import OnnxEmbedder
from memories.embedding.onnx_export import check_against_numpy
from memories.embedding.source import resolve_source

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    "Who founded Northwind Logistics?",
    "k8s",
    "We no longer deploy on Fridays. " * 60,
    *(
        json.loads(line)["content"]
        for line in (ROOT / "fixtures" / "demo_memories.jsonl").read_text().splitlines()[:60]
    ),
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """An export in a child process where torch, transformers and sentence-transformers cannot be imported."""
    folder = tmp_path_factory.mktemp("export")
    script = (
        "import sys\n"
        "for name in ('torch', 'transformers', 'sentence_transformers'):\n"
        "    sys.modules[name] = None  # any import of them raises ImportError\n"
        "from pathlib import Path\n"
        "from memories.embedding import onnx_cache\n"
        f"onnx_cache._export(source=Path({str(resolve_source(None))!r}), folder=Path({str(folder)!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=600)
    return folder


def test_the_export_needs_no_torch(exported):
    assert {p.name for p in exported.iterdir()} == {onnx_cache.FP32_FILE, onnx_cache.INT8_FILE, "tokenizer.json"}
    assert check_against_numpy(resolve_source(None), exported / onnx_cache.FP32_FILE) < 1e-4


def _embed(model_file: Path, variant: str, cache_root: Path) -> np.ndarray:
    embedder = OnnxEmbedder(None, variant=variant, cache_root=cache_root, batch_size=8)
    options = onnxruntime.SessionOptions()  # the embedder's session options, on another file
    options.intra_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    embedder._session = onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
    return np.array(embedder.embed(TEXTS))


def _torchscript_export(source: Path, folder: Path) -> None:
    """The earlier releases' export: transformers' eager BertModel through torch.onnx.export, quantised alike."""
    torch = pytest.importorskip("torch", reason="the reference extra (make reference) compares with torch")
    transformers = pytest.importorskip("transformers", reason="the reference extra (make reference)")
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = transformers.AutoModel.from_pretrained(str(source), local_files_only=True, attn_implementation="eager")
    model.eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    sample = torch.tensor([[101, 7592, 2088, 102, 0, 0], [101, 2040, 2631, 1996, 2194, 102]], dtype=torch.long)
    axes = {0: "batch", 1: "sequence"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            LastHiddenState(model),
            (sample, (sample != 0).long(), torch.zeros_like(sample)),
            str(folder / "model.onnx"),
            dynamo=False,
            opset_version=onnx_cache.EXPORT_SETTINGS["opset"],
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, "last_hidden_state": axes},
        )
    int8 = onnx_cache.EXPORT_SETTINGS["int8"]
    quantize_dynamic(
        str(folder / "model.onnx"),
        str(folder / "model_int8.onnx"),
        weight_type=getattr(QuantType, int8["weight_type"]),
        per_channel=int8["per_channel"],
        reduce_range=int8["reduce_range"],
    )


def test_the_vectors_are_those_of_the_torchscript_export(exported, tmp_path):
    cache_root = tmp_path / "models"
    onnx_cache.ensure_onnx_model(source=resolve_source(None), cache_root=cache_root, variant="int8")
    reference = tmp_path / "torchscript"
    reference.mkdir()
    _torchscript_export(resolve_source(None), reference)

    for variant, name in (("int8", onnx_cache.INT8_FILE), ("fp32", onnx_cache.FP32_FILE)):
        ours = _embed(exported / name, variant, cache_root)
        theirs = _embed(reference / name, variant, cache_root)
        cosines = (ours * theirs).sum(axis=1)
        identical = int((ours == theirs).all(axis=1).sum())
        print(f"{variant}: {identical}/{len(TEXTS)} vectors bit-identical, min cosine {cosines.min():.7f}")
        assert cosines.min() >= 0.9999
