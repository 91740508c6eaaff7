"""The one YAML loader for text from outside: org charts (both formats) and Obsidian notes' front matter.

``yaml.safe_load`` builds no objects but plain data, yet it still trusts the document's shape: a few hundred bytes
of nested aliases ("billion laughs") stand for billions of nodes, which any later ``str()``, ``json.dumps`` or
walk expands; an alias inside its own anchor makes a structure that contains itself; and the composer recurses
once per nesting level, so a deep enough document ends in ``RecursionError``. :func:`load_yaml` is ``safe_load``
with a composer that counts as it goes and stops at the first limit crossed — the document's size (checked before
parsing), the aliases used, the nesting depth, and the expanded size (every node and scalar character counted as
many times as aliases repeat it) — and that refuses an alias to an anchor still open. It also refuses a key
repeated in one mapping (``safe_load`` keeps the last one silently). Every refusal is a :class:`YamlError` whose
message names the line and column; nothing of the document is ever expanded.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

try:
    from yaml.cyaml import CParser as _Events
except ImportError:  # PyYAML built without libyaml: its pure-Python parser, after a flow-depth pre-check
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Events(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


__all__ = ["YamlError", "YamlLimits", "decode_text", "load_yaml"]

# a str holding one cannot be encoded, so libyaml could not even be handed the text
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class YamlLimits:
    #: characters of the document; a longer one is refused before it is parsed
    max_chars: int = 2 * 1024 * 1024
    #: ``*alias`` uses in the document (anchors for shared defaults need a handful)
    max_aliases: int = 100
    #: nesting of sequences and mappings (an org chart nests two levels per tree level)
    max_depth: int = 64
    #: what aliases may add to the document's own size, in nodes plus scalar characters
    max_alias_growth: int = 100_000


DEFAULT_LIMITS = YamlLimits()


class YamlError(ValueError):
    """The text is not YAML this loader accepts; the message says where and why, in one line."""


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _where(mark) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""


class _LimitedLoader(Composer, _Events, SafeConstructor, Resolver):
    """libyaml's parser (fast, and iterative: it refuses nesting past its own bound instead of recursing) feeding
    PyYAML's composer, which keeps count. ``_weight`` holds the expanded size of every node composed so far
    (an alias costs its anchor's whole weight again), so the check is arithmetic on numbers, never an expansion."""

    def __init__(self, stream: str, limits: YamlLimits) -> None:
        _Events.__init__(self, stream)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        Composer.__init__(self)
        self._limits = limits
        self._max_weight = len(stream) + limits.max_alias_growth
        self._aliases = 0
        self._depth = 0
        self._open_anchors: set[str] = set()
        self._weight: dict[int, int] = {}

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            self._aliases += 1
            if self._aliases > self._limits.max_aliases:
                raise YamlError(
                    f"{_where(event.start_mark)}more than {self._limits.max_aliases} aliases (*name); "
                    f"write the values out instead"
                )
            if event.anchor in self._open_anchors:
                raise YamlError(
                    f"{_where(event.start_mark)}the alias *{event.anchor} is inside its own anchor "
                    f"&{event.anchor} (a structure that contains itself)"
                )
            return super().compose_node(parent, index)  # the anchored node (or "undefined alias")
        event = self.peek_event()
        collection = isinstance(event, yaml.CollectionStartEvent)
        if collection:
            self._depth += 1
            if self._depth > self._limits.max_depth:
                raise YamlError(f"{_where(event.start_mark)}nested deeper than {self._limits.max_depth} levels")
        if event.anchor is not None:
            self._open_anchors.add(event.anchor)
        node = super().compose_node(parent, index)
        if event.anchor is not None:
            self._open_anchors.discard(event.anchor)
        if collection:
            self._depth -= 1
        self._weigh(node)
        return node

    def _weigh(self, node) -> None:
        if isinstance(node, yaml.ScalarNode):
            weight = 1 + len(node.value)
        elif isinstance(node, yaml.SequenceNode):
            weight = 1 + sum(self._weight.get(id(child), 1) for child in node.value)
        else:
            weight = 1 + sum(self._weight.get(id(k), 1) + self._weight.get(id(v), 1) for k, v in node.value)
        if weight > self._max_weight:
            raise YamlError(
                f"{_where(node.start_mark)}the aliases expand the document past "
                f"{self._max_weight:,} nodes and characters"
            )
        self._weight[id(node)] = weight

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                    continue  # a complex key (the base class refuses unhashable ones) or a merge (`<<: *defaults`)
                key = self.construct_object(key_node, deep=deep)
                line = key_node.start_mark.line + 1
                if key in seen:
                    raise YamlError(
                        f"line {line}: {_short(key)} appears twice in one mapping (first at line {seen[key]})"
                    )
                seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def load_yaml(text: str, *, limits: YamlLimits = DEFAULT_LIMITS) -> Any:
    """The one YAML document in ``text`` as plain data (dicts, lists, str, int, float, bool, None, dates), or
    :class:`YamlError` — for malformed YAML, for a document past ``limits``, for a repeated key. Bounded in time
    and memory by ``limits``, whatever the text."""
    if len(text) > limits.max_chars:
        raise YamlError(f"the YAML is {len(text):,} characters; at most {limits.max_chars:,} are read")
    surrogate = _LONE_SURROGATE.search(text)
    if surrogate is not None:
        line = text.count("\n", 0, surrogate.start()) + 1
        raise YamlError(f"line {line}: the character U+{ord(surrogate.group()):04X} is half of a UTF-16 pair, not text")
    if not yaml.__with_libyaml__:
        _check_flow_depth(text, limits.max_depth)
    loader = _LimitedLoader(text, limits)
    try:
        return loader.get_single_data()
    except YamlError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        raise YamlError(f"{_where(mark)}{problem}") from None
    except yaml.YAMLError as exc:  # the reader's errors (a character YAML does not allow) carry no mark
        raise YamlError(str(exc).splitlines()[0] if str(exc) else "malformed YAML") from None
    except (ValueError, TypeError, OverflowError) as exc:  # a constructor's own (e.g. an out-of-range date)
        raise YamlError(f"a value cannot be read: {_short(str(exc), 200)}") from None
    except RecursionError:  # unreachable within max_depth; kept so that no limit change can turn it into a 500
        raise YamlError("nested too deeply") from None
    finally:
        loader.dispose()


def _check_flow_depth(text: str, limit: int) -> None:
    """PyYAML's own scanner keeps every open ``[``/``{`` as a possible key and rescans them all for each token, so
    deep flow nesting costs quadratic time before the composer sees the first node: bound it on the raw text
    (brackets inside quoted strings count too, which only makes the bound stricter)."""
    depth = 0
    for match in re.finditer(r"[\[\]{}]", text):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            line = text.count("\n", 0, match.start()) + 1
            raise YamlError(f"line {line}: nested deeper than {limit} levels")


def decode_text(data: bytes) -> str:
    """A file's bytes as text for :func:`load_yaml`: UTF-8 (a UTF-8 byte-order mark is dropped); anything else is
    a YamlError saying what the bytes look like and where they stop being UTF-8."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise YamlError("the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise YamlError(
            f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be decoded "
            f"(save it as UTF-8)"
        ) from None
