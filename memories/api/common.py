"""What the memories API views share: the ``user_id`` query parameter and its help text, and the agent author
every write is made as.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

from memories.api.base import Caller
from memories.models import ApiKey
from memories.services.memory import Author

USER_ID_HELP = "The user the agent acts for (an external id of the tenant): what they may see and write."
USER_ID_PARAM = OpenApiParameter("user_id", str, OpenApiParameter.QUERY, required=True, description=USER_ID_HELP)


def _agent(caller: Caller, api_key: ApiKey) -> Author:
    """The agent author of an API write; a key with the ``admin`` permission may also change admin-curated
    policies (docs/ARCHITECTURE.md, "Who may change what")."""
    return Author(kind="agent", member=caller.member, curator=key_is_curator(api_key))


def key_is_curator(api_key: ApiKey) -> bool:
    return "admin" in (api_key.permissions or [])
