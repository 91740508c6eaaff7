"""The contradiction review queue ("Contradictions"), mounted at ``admin/contradictions/<tenant id>/`` by
``orgmemory.admin_site``.

It is the curation inbox: GET lists the tenant's proposed policies first (a ``policy`` an agent key without the
``admin`` permission wrote: approve makes it curated, reject deletes it; see ``memories.services.trust``), then its
open ``possible_contradiction`` warnings, each memory beside the one it may contradict, with
three choices: keep this one, keep the other (the loser is superseded by the keeper and kept as history), keep both
(the warning is dismissed); and a link to edit either in its change form. POST resolves one pair through
``memories.services.contradictions.contradiction_resolve``, which records who chose what and when, or decides
one proposal through ``memories.services.trust.proposal_decide`` (recorded in the admin log, read by the audit
page). Viewing needs
the view permission on memories (every role), resolving the change permission (curator, tenant admin); another
tenant's id, or a memory of another tenant, is a 404.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from memories.admin.base import tenants_managed
from memories.admin.dashboard import tenant_for_request
from memories.models import Tenant
from memories.selectors.contradictions import contradiction_open_count, contradiction_pairs_open
from memories.services.contradictions import CHOICES, contradiction_resolve
from memories.services.trust import DECISIONS, proposal_decide, proposals_open
from orgmemory.errors import DomainError

CHANGE_PERMISSION = "memories.change_memory"
PAIRS_SHOWN = 50


class ResolveForm(forms.Form):
    memory = forms.IntegerField(min_value=1, max_value=2**63 - 1)
    other = forms.IntegerField(min_value=1, max_value=2**63 - 1)
    choice = forms.ChoiceField(choices=[(choice, choice) for choice in CHOICES])


class DecideForm(forms.Form):
    proposal = forms.IntegerField(min_value=1, max_value=2**63 - 1)
    decision = forms.ChoiceField(choices=[(decision, decision) for decision in DECISIONS])


def contradictions_view(request, tenant_id: int):
    tenant = tenant_for_request(request, tenant_id)
    may_resolve = request.user.has_perm(CHANGE_PERMISSION)
    if request.method == "POST":
        if not may_resolve:
            raise PermissionDenied("Your role may view contradictions but not resolve them.")
        return _decide(request, tenant) if "proposal" in request.POST else _resolve(request, tenant)
    context = {
        **admin.site.each_context(request),
        "title": "Contradictions",
        "subtitle": tenant.name or tenant.slug,
        "tenant": tenant,
        "pairs": contradiction_pairs_open(tenant=tenant, limit=PAIRS_SHOWN),
        "proposals": proposals_open(tenant=tenant, limit=PAIRS_SHOWN),
        "open_count": contradiction_open_count(tenant=tenant),
        "pairs_shown": PAIRS_SHOWN,
        "may_resolve": may_resolve,
        "dashboard_url": reverse("admin:dashboard_tenant", args=[tenant.pk]),
    }
    request.current_app = admin.site.name
    return TemplateResponse(request, "admin/contradictions/queue.html", context)


def _resolve(request, tenant: Tenant):
    form = ResolveForm(request.POST)
    here = reverse("admin:contradictions_queue", args=[tenant.pk])
    if not form.is_valid():
        messages.error(request, "Nothing was resolved: the request did not name a pair and a choice.")
        return HttpResponseRedirect(here)
    data = form.cleaned_data
    try:
        resolution = contradiction_resolve(
            tenant=tenant, memory_id=data["memory"], other_id=data["other"], choice=data["choice"], user=request.user
        )
    except DomainError as exc:
        if exc.code == "memory_not_found":
            raise Http404("No such memory.")
        messages.error(request, f"Nothing was resolved: {exc.message}.")
        return HttpResponseRedirect(here)
    if resolution.superseded is None:
        messages.success(
            request, f"Kept both memory {resolution.memory_id} and memory {resolution.other_id}; warning dismissed."
        )
    else:
        messages.success(
            request,
            f"Kept memory {resolution.kept[0]}; memory {resolution.superseded} is now its history (superseded).",
        )
    return HttpResponseRedirect(here)


def _decide(request, tenant: Tenant):
    form = DecideForm(request.POST)
    here = reverse("admin:contradictions_queue", args=[tenant.pk])
    if not form.is_valid():
        messages.error(request, "Nothing was decided: the request did not name a proposal and a decision.")
        return HttpResponseRedirect(here)
    data = form.cleaned_data
    try:
        decided = proposal_decide(
            tenant=tenant, memory_id=data["proposal"], decision=data["decision"], user=request.user
        )
    except DomainError as exc:
        if exc.code == "memory_not_found":
            raise Http404("No such memory.")
        messages.error(request, f"Nothing was decided: {exc.message}.")
        return HttpResponseRedirect(here)
    if decided.decision == "approve":
        messages.success(request, f"Approved memory {decided.memory_id}: it is now a curated policy.")
    else:
        messages.success(request, f"Rejected memory {decided.memory_id}: it was removed.")
    return HttpResponseRedirect(here)


def contradictions_index(request):
    """``admin/contradictions/``: the user's only tenant's queue, or a choice of tenants."""
    tenants = list(tenants_managed(request.user))
    if len(tenants) == 1:
        return HttpResponseRedirect(reverse("admin:contradictions_queue", args=[tenants[0].pk]))
    if not tenants:
        raise Http404("You do not administer any tenant.")
    context = {
        **admin.site.each_context(request),
        "title": "Contradictions",
        "tenant_links": [(tenant, reverse("admin:contradictions_queue", args=[tenant.pk])) for tenant in tenants],
    }
    request.current_app = admin.site.name
    return TemplateResponse(request, "admin/contradictions/tenants.html", context)
