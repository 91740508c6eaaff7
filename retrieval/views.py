"""The admin's search playground: search as a member of a tenant you administer and see why rows rank.

Searching as a member with their private memories is acting as them, which only a role that may issue API keys
(every key acts for any member: ``memories.add_apikey``, the Tenant admin role) or a superuser may do; a Curator
or an Auditor searches as the member over the member's shared scopes only (README, "Admin roles")."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.template.response import TemplateResponse

from memories.admin.base import tenants_managed
from memories.models import Member, Tenant
from memories.services.callers import caller_resolve
from orgmemory.errors import DomainError
from retrieval.llm import llm_from_settings
from retrieval.presenters import result_as_dict
from retrieval.services import DEFAULT_AUTOCUT, MAX_TOP_K, SearchOptions, search_memories


class PlaygroundForm(forms.Form):
    tenant = forms.ModelChoiceField(queryset=Tenant.objects.none())
    user_id = forms.CharField(
        max_length=128, label="member (user_id)", widget=forms.TextInput(attrs={"list": "members"})
    )
    query = forms.CharField(max_length=2000)
    top_k = forms.IntegerField(min_value=1, max_value=MAX_TOP_K, initial=10)
    autocut = forms.BooleanField(required=False, initial=DEFAULT_AUTOCUT)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        tenants = tenants_managed(user)
        self.fields["tenant"].queryset = tenants
        first_two = list(tenants.order_by("pk")[:2])
        if len(first_two) == 1:  # the user's only tenant (a tenant admin's, or the only one there is) is chosen
            self.fields["tenant"].initial = first_two[0].pk


def may_search_with_private_memories(user) -> bool:
    """Whether ``user`` may search as a member with that member's private memories: a superuser, or a role that
    may issue API keys (a tenant-wide key acts for any member, so this is no more than the role can do already)."""
    return user.is_superuser or user.has_perm("memories.add_apikey")


def playground(request):
    form = PlaygroundForm(request.GET or None, user=request.user)
    context = {**admin.site.each_context(request), "title": "Search playground", "form": form}
    if form.is_valid():
        tenant = form.cleaned_data["tenant"]
        context["members"] = list(Member.objects.for_tenant(tenant).values_list("user_id", flat=True)[:500])
        try:
            caller = caller_resolve(tenant=tenant, api_key=None, user_id=form.cleaned_data["user_id"])
            scopes: tuple[str, ...] = ()
            if not may_search_with_private_memories(request.user):
                scopes = tuple(node.tag for node in caller.chain if node.pk != caller.member.scope_id)
                if not scopes:  # an empty restriction would mean none: search nothing rather than everything
                    raise DomainError(f"{caller.member.user_id} has no shared scopes to search")
                context["notice"] = (
                    f"Searching as {caller.member.user_id} over their shared scopes: their private memories are left "
                    "out (only a Tenant admin searches with them)."
                )
            result = search_memories(
                tenant=tenant,
                user_id=caller.member.user_id,
                query=form.cleaned_data["query"],
                options=SearchOptions(
                    top_k=form.cleaned_data["top_k"],
                    autocut=form.cleaned_data["autocut"],
                    scopes=scopes,
                    explain=True,
                    synthesize=True,
                    gaps=True,
                    track_access=False,
                ),
                llm=llm_from_settings(),
            )
        except DomainError as exc:
            context["error"] = exc.message
        else:
            context["result"] = result_as_dict(result)
            context["timings"] = result.timings_ms
    elif form.is_bound and form.data.get("tenant"):
        context["members"] = []
    return TemplateResponse(request, "admin/retrieval/playground.html", context)
