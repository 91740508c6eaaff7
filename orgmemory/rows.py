"""Model instances from a hand-written statement's columns, for the reads every API request makes (the API key with
its tenant and scope, the search's hit rows with their scopes).

A queryset is compiled on every evaluation, and for these small, hot statements compiling it and building the rows
cost the process several times what PostgreSQL spends answering (bench/HISTORY.md, search at scale).
:class:`ModelColumns` writes the select list once, at import, and turns a row into the instance Django
would have built: each field's database converters (JSON, for instance) and then ``Model.from_db``, so the fields
left out are deferred exactly as with ``.defer()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model


class ModelColumns:
    """The concrete fields of ``model`` (less ``exclude``) as the columns of table alias ``alias``.

    ``select`` is the select list (``alias."column", …``, in field order); :meth:`build` turns ``width`` values of a
    row, from ``start``, into an instance, or ``None`` when its primary key is NULL (a LEFT JOIN that found no row).
    """

    def __init__(self, model: type[Model], alias: str, *, exclude: Sequence[str] = ()) -> None:
        unknown = set(exclude) - {field.attname for field in model._meta.concrete_fields}
        if unknown:
            raise ValueError(f"{model.__name__} has no concrete fields {sorted(unknown)}")
        self.model = model
        self.fields = tuple(field for field in model._meta.concrete_fields if field.attname not in exclude)
        if not self.fields[0].primary_key:
            raise ValueError(f"{model.__name__}'s first concrete field is not its primary key")
        self.select = ", ".join(f'{alias}."{field.column}"' for field in self.fields)
        self.width = len(self.fields)
        self.attnames = [field.attname for field in self.fields]
        self._converters: list[tuple[int, Any, list[Callable]]] | None = None

    def build(self, row: Sequence[Any], start: int = 0, *, using: str = DEFAULT_DB_ALIAS) -> Model | None:
        values = list(row[start : start + self.width])
        if values[0] is None:
            return None
        connection = connections[using]
        for index, column, converters in self._field_converters(connection):
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(using, self.attnames, values)

    def _field_converters(self, connection) -> list[tuple[int, Any, list[Callable]]]:
        # what SQLCompiler.get_converters collects for a plain column (the backend's, then the field's own), kept
        # for the fields that have any
        if self._converters is None:
            self._converters = []
            for index, field in enumerate(self.fields):
                converters = [*connection.ops.get_db_converters(field.cached_col), *field.get_db_converters(connection)]
                if converters:
                    self._converters.append((index, field.cached_col, converters))
        return self._converters


def select_list(*parts: ModelColumns) -> str:
    """The select list of several models side by side, in the order :func:`build_all` reads them back."""
    return ", ".join(part.select for part in parts)


def build_all(row: Sequence[Any], *parts: ModelColumns) -> list[Model | None]:
    """The instances of ``parts`` from one row of a :func:`select_list` of the same parts, each from its offset."""
    built, start = [], 0
    for part in parts:
        built.append(part.build(row, start))
        start += part.width
    return built
