"""What the memories API views share: the ``user_id`` query parameter and its help text, and the agent author
every write is made as.
"""

from __future__ import annotations

from dataclasses import replace

from drf_spectacular.utils import OpenApiParameter

from memories.models import ApiKey, Scope, Tenant
from memories.selectors import project_name_clean
from memories.services.callers import (
    Caller,
    author_for,
    caller_project_nodes,
    caller_scope_ids,
    key_is_curator,
)
from memories.services.memory import Author

__all__ = ["key_is_curator", "key_reads_tenant_wide"]

USER_ID_HELP = "The user the agent acts for (an external id of the tenant): what they may see and write."
USER_ID_PARAM = OpenApiParameter("user_id", str, OpenApiParameter.QUERY, required=True, description=USER_ID_HELP)
PROJECT_PARAM = OpenApiParameter(
    "project",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="Also the memories of this project of the user's chain (404 `unknown_project` if it has none).",
)


def visible_project_nodes(*, tenant: Tenant, caller: Caller, project: object = None) -> list[Scope]:
    """The nodes of ``project`` under ``caller``'s chain ([] when no project is named; 400 ``invalid_project`` for
    a malformed name, 404 ``unknown_project`` when the chain has none)."""
    return caller_project_nodes(tenant=tenant, caller=replace(caller, project=project_name_clean(project)))


def visible_scope_ids(*, tenant: Tenant, caller: Caller, project: object = None) -> list[int]:
    """The scopes a request acting for ``caller`` sees: their chain, plus the nodes of ``project`` under it when
    one is named."""
    return caller_scope_ids(tenant=tenant, caller=replace(caller, project=project_name_clean(project)))


def key_reads_tenant_wide(api_key: ApiKey) -> bool:
    """A key that may read any memory of its tenant without naming a member: not restricted to a subtree, with the
    ``admin`` permission (it may act as any member anyway, and erase them)."""
    return api_key.scope_id is None and key_is_curator(api_key)


def _agent(caller: Caller, api_key: ApiKey) -> Author:
    """The agent author of an API write (:func:`memories.services.callers.author_for`)."""
    return author_for(caller=caller, api_key=api_key)
