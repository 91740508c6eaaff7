"""The admin's graph page: an interactive force-directed view of one tenant's knowledge graph around an entity.

Staff only (``orgmemory.admin_site`` mounts every view wrapped in ``admin_view``) and tenant-checked: a tenant the user
does not administer, or an entity of another tenant, is a 404. Unlike the API's graph reads, these views are
**not scope-filtered**: admins curate the whole tenant, so they see every link of it, whichever scope the stating
memory lives at (the page says so).
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q
from django.http import Http404, JsonResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from graph import vocabulary
from graph.extraction import TYPED_RELATIONSHIPS, normalize_entity_name
from graph.models import Entity
from graph.selectors import DEPTHS, MAX_EDGES, MAX_NODES, tenant_graph_around
from memories.admin.base import tenants_managed
from memories.models import Tenant
from orgmemory.api.exceptions import error_body
from orgmemory.errors import DomainError, NotFound, ValidationFailed
from orgmemory.text import text_problem, text_storable

SEARCH_RESULTS = 20
SEARCH_MAX_CHARS = 200
RELATIONSHIP_MAX_CHARS = 32  # EntityLink.relationship's max_length


# --- parameters -------------------------------------------------------------------------------------------------


def _int_param(request, name: str) -> int | None:
    raw = request.GET.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValidationFailed(f"{name} must be an integer", code="invalid_parameter", details={name: [raw[:50]]})
    if not 0 < value < 2**63:
        raise NotFound(f"unknown {name}", code=f"unknown_{name}")
    return value


def _allowed_tenants(request):
    return tenants_managed(request.user).order_by("slug")


def _tenant(request, *, required: bool) -> Tenant | None:
    tenant_id = _int_param(request, "tenant")
    if tenant_id is None:
        if required:
            raise ValidationFailed("tenant is required", code="invalid_parameter", details={"tenant": ["required"]})
        return None
    tenant = _allowed_tenants(request).filter(pk=tenant_id).first()
    if tenant is None:  # another tenant's id looks exactly like a missing one
        raise NotFound("unknown tenant", code="unknown_tenant")
    return tenant


def _entity(request, tenant: Tenant) -> Entity | None:
    entity_id = _int_param(request, "entity")
    if entity_id is None:
        return None
    entity = Entity.objects.filter(tenant=tenant, pk=entity_id).first()
    if entity is None:
        raise NotFound("unknown entity", code="unknown_entity")
    return entity


def _depth(request) -> int:
    raw = request.GET.get("depth", "").strip() or "1"
    if raw not in {str(depth) for depth in DEPTHS}:
        raise ValidationFailed("depth must be 1 or 2", code="invalid_parameter", details={"depth": [raw[:50]]})
    return int(raw)


def _relationship(request) -> str:
    value = request.GET.get("relationship", "").strip()
    if len(value) > RELATIONSHIP_MAX_CHARS or text_problem(value):
        raise ValidationFailed("unknown relationship", code="invalid_parameter", details={"relationship": ["bad"]})
    return value


def _error(exc: DomainError) -> JsonResponse:
    return JsonResponse(error_body(exc.code, exc.message, exc.details), status=exc.status)


def _default_centre(tenant: Tenant) -> Entity | None:
    """Where the page opens when no entity is asked for: the tenant's most mentioned entity."""
    return Entity.objects.filter(tenant=tenant).order_by("-mention_count", "name", "id").first()


def _lenient(parse, default):
    try:
        return parse()
    except NotFound as exc:
        raise Http404(exc.message)
    except ValidationFailed:
        return default


def _url_maker(name: str):
    """An admin change-page URL per id without a reverse() per row (hundreds of nodes and edges)."""
    pattern = reverse(name, args=["__pk__"])
    return lambda pk: pattern.replace("__pk__", str(pk))


# --- views ------------------------------------------------------------------------------------------------------


@require_GET
def graph_page(request):
    """The page itself; its script asks :func:`graph_data` for the graph. ``?tenant=&entity=`` preselect (the
    entity change page links here)."""
    # a malformed preselection just opens the page's defaults; another tenant's tenant or entity is a 404
    tenant = _lenient(lambda: _tenant(request, required=False), None)
    entity = _lenient(lambda: _entity(request, tenant), None) if tenant is not None else None
    depth = _lenient(lambda: _depth(request), DEPTHS[0])
    relationship = _lenient(lambda: _relationship(request), "")
    tenants = list(_allowed_tenants(request))
    if tenant is None and tenants:
        tenant = tenants[0]
    config = {
        "dataUrl": reverse("admin:graph_data"),
        "entitiesUrl": reverse("admin:graph_entities"),
        "tenant": tenant.pk if tenant else None,
        "entity": entity.pk if entity else None,
        "entityName": entity.name if entity else "",
        "depth": depth,
        "relationship": relationship,
        "maxNodes": MAX_NODES,
    }
    context = {
        **admin.site.each_context(request),
        "title": "Knowledge graph",
        "tenants": tenants,
        "tenant": tenant,
        "depths": DEPTHS,
        "relationships": [(value, vocabulary.BY_VALUE[value].label) for value in TYPED_RELATIONSHIPS],
        "vocabulary": vocabulary.as_json(),  # labels and colours for graph.js (json_script)
        "config": config,
        "max_nodes": MAX_NODES,
    }
    request.current_app = admin.site.name
    return TemplateResponse(request, "admin/graph/graph.html", context)


@require_GET
def graph_data(request):
    """``?tenant=&entity=&depth=&relationship=`` → the subgraph as JSON: ``nodes`` (id, name, kind, mentions,
    distance, url), ``edges`` (id, source, target, relationship, confidence, memory, memory_url), ``centre`` and
    ``truncated``. No entity: centred on the tenant's most mentioned one. Errors: 400 for a bad depth or parameter,
    404 for a tenant the user does not administer or an entity of another tenant."""
    try:
        tenant = _tenant(request, required=True)
        entity = _entity(request, tenant)
        depth = _depth(request)
        relationship = _relationship(request)
    except DomainError as exc:
        return _error(exc)
    centre = entity or _default_centre(tenant)
    payload = {
        "tenant": {"id": tenant.pk, "slug": tenant.slug},
        "centre": None,
        "depth": depth,
        "relationship": relationship,
        "nodes": [],
        "edges": [],
        "truncated": False,
        "max_nodes": MAX_NODES,
    }
    if centre is None:
        return JsonResponse(payload)
    graph = tenant_graph_around(
        tenant=tenant, centre=centre, depth=depth, relationship=relationship, max_nodes=MAX_NODES, max_edges=MAX_EDGES
    )
    entity_url = _url_maker("admin:graph_entity_change")
    memory_url = _url_maker("admin:memories_memory_change")
    payload["centre"] = {"id": centre.pk, "name": centre.name}
    payload["truncated"] = graph.truncated
    payload["nodes"] = [
        {
            "id": node.pk,
            "name": node.name,
            "kind": node.kind,
            "mentions": node.mention_count,
            "distance": graph.distance[node.pk],
            "url": entity_url(node.pk),
        }
        for node in graph.entities
    ]
    payload["edges"] = [
        {
            "id": link["id"],
            "source": link["subject_id"],
            "target": link["object_id"],
            "relationship": link["relationship"],
            "confidence": link["confidence"],
            "memory": link["memory_id"],
            "memory_url": memory_url(link["memory_id"]),
        }
        for link in graph.links
    ]
    return JsonResponse(payload)


@require_GET
def entity_search(request):
    """``?tenant=&q=`` → up to 20 of the tenant's entities whose name, normalised name or an alias contains ``q``,
    most mentioned first (the page's search box)."""
    try:
        tenant = _tenant(request, required=True)
    except DomainError as exc:
        return _error(exc)
    raw = text_storable(request.GET.get("q", ""))[:SEARCH_MAX_CHARS].strip()
    entities = Entity.objects.filter(tenant=tenant)
    if raw:
        norm = normalize_entity_name(raw) or raw.casefold()
        entities = entities.filter(
            Q(name__icontains=raw) | Q(norm__contains=norm) | Q(aliases__norm__contains=norm)
        ).distinct()
    rows = entities.order_by("-mention_count", "name", "id").values("id", "name", "kind", "mention_count")
    return JsonResponse(
        {
            "results": [
                {"id": row["id"], "name": row["name"], "kind": row["kind"], "mentions": row["mention_count"]}
                for row in rows[:SEARCH_RESULTS]
            ]
        }
    )
