"""What the memories API views share: the ``user_id`` query parameter and its help text, and the agent author
every write is made as.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

from memories.api.base import Caller
from memories.models import ApiKey, Scope, Tenant
from memories.selectors import project_name_clean, project_nodes
from memories.services.memory import Author

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
    name = project_name_clean(project)
    return [] if name is None else project_nodes(tenant=tenant, chain_ids=caller.chain_ids, project=name)


def visible_scope_ids(*, tenant: Tenant, caller: Caller, project: object = None) -> list[int]:
    """The scopes a request acting for ``caller`` sees: their chain, plus the nodes of ``project`` under it when
    one is named."""
    return caller.chain_ids + [node.pk for node in visible_project_nodes(tenant=tenant, caller=caller, project=project)]


def _agent(caller: Caller, api_key: ApiKey) -> Author:
    """The agent author of an API write; a key with the ``admin`` permission may also change admin-curated
    policies (docs/ARCHITECTURE.md, "Who may change what")."""
    return Author(kind="agent", member=caller.member, curator=key_is_curator(api_key))


def key_is_curator(api_key: ApiKey) -> bool:
    return "admin" in (api_key.permissions or [])
