"""The ONNX graph of a BERT encoder (all-MiniLM-L6-v2's architecture) written node by node with ``onnx.helper``
from the model folder's safetensors weights: no torch, no transformers.

The graph computes what transformers' eager ``BertModel`` computes and what its TorchScript export contained —
the same operators in the same order (Gather embeddings, LayerNormalization, MatMul + Add projections with the
transposed weights as initialisers, scaled dot-product attention with an additive mask, erf GELU) — so the int8
quantiser finds the same MatMul and Gather weights to quantise and the served vectors do not change.
``check_against_numpy`` runs the graph beside a plain numpy forward pass of the same weights on a padded batch.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

MASKED = float(np.finfo(np.float32).min)  # the additive mask of a padded key, as transformers builds it


class UnsupportedModel(ValueError):
    pass


def _config(source: Path) -> dict:
    config = json.loads((source / "config.json").read_text())
    if config.get("model_type") != "bert" or config.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel(f"{source}: only BERT encoders with absolute positions are exported without torch")
    if config.get("hidden_act", "gelu") != "gelu":
        raise UnsupportedModel(f"{source}: hidden_act {config.get('hidden_act')!r} (only gelu)")
    return config


def load_weights(source: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    path = source / "model.safetensors"
    if not path.is_file():
        raise UnsupportedModel(f"{source} has no model.safetensors")
    weights = load_file(str(path))
    # checkpoints saved from BertForX prefix the encoder's names with "bert."
    return {name.removeprefix("bert."): value for name, value in weights.items()}


def build_model(source: Path, *, opset: int):
    """The fp32 ``onnx.ModelProto``: inputs input_ids / attention_mask / token_type_ids (int64, batch × sequence),
    output last_hidden_state (float32, batch × sequence × hidden)."""
    from onnx import TensorProto, helper, numpy_helper

    config = _config(source)
    w = load_weights(source)
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    head_dim = hidden // heads
    eps = float(config.get("layer_norm_eps", 1e-12))
    nodes, initializers = [], []

    def const(name: str, value) -> str:
        initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def weight(name: str, transpose: bool = False) -> str:
        value = w[name].astype(np.float32)
        return const(name, np.ascontiguousarray(value.T) if transpose else value)

    def linear(x: str, prefix: str) -> str:
        product = node("MatMul", [x, weight(f"{prefix}.weight", transpose=True)], f"{prefix}/MatMul")
        return node("Add", [weight(f"{prefix}.bias"), product], f"{prefix}/Add")

    def layer_norm(x: str, prefix: str) -> str:
        scale, bias = weight(f"{prefix}.weight"), weight(f"{prefix}.bias")
        return node("LayerNormalization", [x, scale, bias], f"{prefix}/LayerNormalization", axis=-1, epsilon=eps)

    # embeddings: word + token type + absolute position, then LayerNorm
    length = node(
        "Gather", [node("Shape", ["input_ids"], "input_shape"), const("one", np.array(1, np.int64))], "length"
    )
    positions = node("Range", [const("zero", np.array(0, np.int64)), length, "one"], "positions")
    position_ids = node("Unsqueeze", [positions, const("axes_0", np.array([0], np.int64))], "position_ids")
    words = node("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"], "embeddings/words")
    types = node("Gather", [weight("embeddings.token_type_embeddings.weight"), "token_type_ids"], "embeddings/types")
    summed = node("Add", [words, types], "embeddings/Add")
    where = node("Gather", [weight("embeddings.position_embeddings.weight"), position_ids], "embeddings/positions")
    x = layer_norm(node("Add", [summed, where], "embeddings/Add_1"), "embeddings.LayerNorm")

    # the additive attention mask: 0 for a real token, the most negative float for padding (batch × 1 × 1 × keys)
    keep = node("Cast", ["attention_mask"], "mask/bool", to=TensorProto.BOOL)
    keep = node("Unsqueeze", [keep, const("axes_1_2", np.array([1, 2], np.int64))], "mask/unsqueezed")
    mask = node(
        "Where",
        [keep, const("mask/keep", np.array(0.0, np.float32)), const("mask/drop", np.array(MASKED, np.float32))],
        "mask/additive",
    )
    split_heads = const("split_heads", np.array([0, 0, heads, head_dim], np.int64))
    hidden_dim = const("hidden_dim", np.array([hidden], np.int64))
    scaling = const("scaling", np.array(1.0 / math.sqrt(head_dim), np.float32))
    sqrt2 = const("sqrt2", np.array(math.sqrt(2.0), np.float32))
    one_f, half = const("one_f", np.array(1.0, np.float32)), const("half", np.array(0.5, np.float32))

    for index in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{index}"
        heads_of = {}
        for part in ("query", "key", "value"):
            projected = linear(x, f"{p}.attention.self.{part}")
            heads_of[part] = node("Reshape", [projected, split_heads], f"{p}.attention.self.{part}/Reshape")
        q = node("Transpose", [heads_of["query"]], f"{p}/q", perm=[0, 2, 1, 3])
        v = node("Transpose", [heads_of["value"]], f"{p}/v", perm=[0, 2, 1, 3])
        k_t = node("Transpose", [heads_of["key"]], f"{p}/k_t", perm=[0, 2, 3, 1])
        scores = node("Mul", [node("MatMul", [q, k_t], f"{p}/scores"), scaling], f"{p}/scaled")
        probs = node("Softmax", [node("Add", [scores, mask], f"{p}/masked")], f"{p}/probs", axis=-1)
        context = node("Transpose", [node("MatMul", [probs, v], f"{p}/context")], f"{p}/context_t", perm=[0, 2, 1, 3])
        # the merged shape is computed from the tensor, as the TorchScript export did: with a constant shape
        # onnxruntime fuses the attention residual into SkipLayerNormalization, whose rounding moves the int8
        # vectors (cosine 0.995 to those of the torch-exported graph; with this, bit-identical)
        shape = node("Shape", [context], f"{p}/context_shape")
        dims = [
            node(
                "Unsqueeze",
                [node("Gather", [shape, const(f"{p}/dim{axis}", np.array(axis, np.int64))], f"{p}/d{axis}"), "axes_0"],
                f"{p}/u{axis}",
            )
            for axis in (0, 1)
        ]
        merged = node("Concat", [*dims, hidden_dim], f"{p}/merged_shape", axis=0)
        context = node("Reshape", [context, merged], f"{p}/context_merged")
        attended = node("Add", [linear(context, f"{p}.attention.output.dense"), x], f"{p}/attention_residual")
        x = layer_norm(attended, f"{p}.attention.output.LayerNorm")
        inner = linear(x, f"{p}.intermediate.dense")
        erf = node("Erf", [node("Div", [inner, sqrt2], f"{p}/gelu_div")], f"{p}/gelu_erf")
        gelu = node(
            "Mul",
            [node("Mul", [inner, node("Add", [erf, one_f], f"{p}/gelu_add")], f"{p}/gelu_mul"), half],
            f"{p}/gelu",
        )
        x = layer_norm(
            node("Add", [linear(gelu, f"{p}.output.dense"), x], f"{p}/output_residual"), f"{p}.output.LayerNorm"
        )

    node("Identity", [x], "last_hidden_state")
    axes = ["batch", "sequence"]
    graph = helper.make_graph(
        nodes,
        "bert_encoder",
        [
            helper.make_tensor_value_info(name, TensorProto.INT64, axes)
            for name in ("input_ids", "attention_mask", "token_type_ids")
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*axes, hidden])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="orgmemory")
    model.ir_version = 8  # what onnxruntime of every supported version reads
    return model


def numpy_forward(weights: dict[str, np.ndarray], config: dict, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """BERT's last hidden state in plain numpy (float64): the independent check of the graph's wiring."""
    from math import erf

    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    head_dim = hidden // heads
    eps = float(config.get("layer_norm_eps", 1e-12))
    w = {name: value.astype(np.float64) for name, value in weights.items() if value.dtype.kind == "f"}
    gelu_erf = np.vectorize(erf)

    def norm(x, prefix):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * w[f"{prefix}.weight"] + w[f"{prefix}.bias"]

    def linear(x, prefix):
        return x @ w[f"{prefix}.weight"].T + w[f"{prefix}.bias"]

    batch, length = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][np.zeros_like(ids)]
    x = norm(x + w["embeddings.position_embeddings.weight"][np.arange(length)][None], "embeddings.LayerNorm")
    additive = np.where(mask[:, None, None, :].astype(bool), 0.0, -1e30)
    for index in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{index}"
        split = [
            linear(x, f"{p}.attention.self.{part}").reshape(batch, length, heads, head_dim).transpose(0, 2, 1, 3)
            for part in ("query", "key", "value")
        ]
        scores = split[0] @ split[1].transpose(0, 1, 3, 2) / math.sqrt(head_dim) + additive
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ split[2]
        context = context.transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        x = norm(linear(context, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        inner = linear(x, f"{p}.intermediate.dense")
        inner = inner * 0.5 * (1.0 + gelu_erf(inner / math.sqrt(2.0)))
        x = norm(linear(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
    return x


def check_against_numpy(source: Path, model_file: Path) -> float:
    """The largest absolute difference between the exported fp32 graph and ``numpy_forward`` on a padded batch
    (real tokens only)."""
    import onnxruntime

    config = _config(source)
    rng = np.random.default_rng(0)
    ids = rng.integers(1000, 20000, size=(3, 11), dtype=np.int64)
    mask = np.ones_like(ids)
    mask[1, 7:] = 0
    mask[2, 3:] = 0
    ids[mask == 0] = 0
    session = onnxruntime.InferenceSession(str(model_file), providers=["CPUExecutionProvider"])
    got = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    expected = numpy_forward(load_weights(source), config, ids, mask)
    valid = mask.astype(bool)
    return float(np.abs(got[valid] - expected[valid]).max())
