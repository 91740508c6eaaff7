"""The admin's onboarding wizard, mounted at ``admin/onboard/`` by ``orgmemory.admin_site`` (linked from the admin
index as "Onboard").

Upload or paste an org chart (the OrgMemory YAML or nuvel's ``org_graph.yaml``) → the dry-run diff, computed by
``tenant_onboard(dry_run=True)``, as tables, with a choice per leaver on a re-sync → apply, through the same
``tenant_onboard`` as the ``onboard_tenant`` command, in one transaction → the new API keys, shown once (the page
is the only place they appear; nothing keeps them).

The reviewed diff travels with the apply form as a signed token (its fingerprint, the chart's hash, the user and the
mode); the apply refuses an altered or expired token, and ``tenant_onboard`` refuses the diff when the tenant changed
since (then the page shows the new diff). Superusers may onboard any tenant and create new ones; a tenant's staff
with the onboarding permissions (the tenant admin role) may update only their own tenants. Every refusal is a
message on the page and nothing is written.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django import forms
from django.contrib import admin
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.core import signing
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.template.response import TemplateResponse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from memories.admin.base import tenants_for
from memories.curation.services import admin_log_tenant_record
from memories.models import Tenant
from memories.orgchart import OrgChartError, OrgChartPlan, parse_org_chart
from memories.services import tenant_onboard
from memories.services.onboarding import (
    CHART_MAX_BYTES,
    LEAVER_CHOICES,
    StaleDiff,
    onboarding_check_choices,
    onboarding_diff,
)
from orgmemory.errors import DomainError

#: What a tenant's staff needs to onboard (the tenant admin role holds all of it; a curator or auditor does not).
ONBOARD_PERMISSIONS = (
    "memories.add_scope",
    "memories.change_scope",
    "memories.delete_scope",
    "memories.change_member",
    "memories.delete_member",
    "memories.add_apikey",
    "memories.change_policy",
)
SIGNING_SALT = "memories.admin.onboarding"  # namespaces the signature; not a secret
TOKEN_MAX_AGE = 60 * 60  # seconds a reviewed diff stays appliable
LEAVER_FIELD = "leaver:"


def _limit() -> str:
    return f"{CHART_MAX_BYTES // (1024 * 1024)} MiB"


class ChartForm(forms.Form):
    chart = forms.CharField(
        required=False,
        strip=False,
        label="Paste the org chart (YAML)",
        # maxlength keeps a browser's paste under Django's request-body limit, which would refuse it before this view
        widget=forms.Textarea(attrs={"rows": 16, "cols": 100, "spellcheck": "false", "maxlength": CHART_MAX_BYTES}),
    )
    upload = forms.FileField(required=False, label="…or upload a file")
    sync = forms.BooleanField(
        required=False,
        label="Re-sync",
        help_text="HR re-sync: members missing from this chart have left (you choose, per leaver, what happens to "
        "their memories) and nodes missing from it are removed. Unticked, they are left as they are.",
    )

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("upload"), cleaned.get("chart") or ""
        if upload is not None and text.strip():
            raise forms.ValidationError("Paste a chart or upload a file, not both.")
        if upload is not None:
            if upload.size > CHART_MAX_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size / (1024 * 1024):.1f} MiB; the wizard accepts charts up to {_limit()}. "
                    f"Split it, or load it with manage.py onboard_tenant FILE, which has no limit."
                )
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError("The file is not UTF-8 text.")
        elif not text.strip():
            raise forms.ValidationError("Paste an org chart or choose a file.")
        text = _normalised(text)
        if len(text.encode()) > CHART_MAX_BYTES:
            raise forms.ValidationError(f"The chart is larger than {_limit()}.")
        try:
            cleaned["plan"] = parse_org_chart(text)
        except OrgChartError as exc:
            raise forms.ValidationError(f"The chart cannot be used: {exc}")
        cleaned["text"] = text
        return cleaned


# --- access ------------------------------------------------------------------------------------------------------


def may_onboard(user) -> bool:
    """Superusers; or staff assigned to a tenant who hold the onboarding permissions (erasure is checked apart)."""
    if user.is_superuser:
        return True
    return bool(tenants_for(user)) and user.has_perms(ONBOARD_PERMISSIONS)


def _may_onboard_tenant(user, slug: str) -> bool:
    """Superusers: any tenant, new ones included. Others: only an existing tenant they administer."""
    allowed = tenants_for(user)
    return allowed is None or Tenant.objects.filter(pk__in=allowed, slug=slug).exists()


def _may_erase(user) -> bool:
    """Erasure has a permission of its own once the roles define it; until then, deleting members is the bar."""
    if user.is_superuser:
        return True
    if Permission.objects.filter(content_type__app_label="memories", codename="erase_member").exists():
        return user.has_perm("memories.erase_member")
    return user.has_perm("memories.delete_member")


def _foreign_chart_message(plan: OrgChartPlan) -> str:
    return (
        f"This chart is for tenant {plan.tenant_slug!r}, which you do not administer. You can onboard only your own "
        f"tenants; only a superuser can create a tenant."
    )


# --- views -------------------------------------------------------------------------------------------------------


def _context(request, **extra):
    return {**admin.site.each_context(request), "title": "Onboard a tenant", "chart_limit": _limit(), **extra}


def _token(*, request, plan: OrgChartPlan, text: str, sync: bool, fingerprint: str, choices: dict | None = None) -> str:
    """The signed review. ``choices`` — the leavers' choices and the confirmation to delete removed nodes'
    memories — is None until the admin has chosen and seen the choices confirmed; an apply then runs exactly the
    signed choices, so none can change between that review and the apply."""
    return signing.dumps(
        {
            "fingerprint": fingerprint,
            "chart": hashlib.sha256(text.encode()).hexdigest(),
            "tenant": plan.tenant_slug,
            "sync": sync,
            "user": request.user.pk,
            "choices": choices,
        },
        salt=SIGNING_SALT,
    )


def _review(
    request,
    *,
    plan: OrgChartPlan,
    text: str,
    sync: bool,
    error: str = "",
    status: int = 200,
    confirm: dict | None = None,
):
    """Run the dry run and render the diff page (or the start page with the refusal). With ``confirm`` (checked
    choices for this diff's leavers and removed memories), the page shows those choices fixed and its token signs
    them: applying from it runs exactly them."""
    try:
        result = tenant_onboard(plan=plan, dry_run=True, sync=sync)
    except (OrgChartError, DomainError) as exc:
        form = ChartForm(initial={"chart": text, "sync": sync})
        message = exc.message if isinstance(exc, DomainError) else str(exc)
        return TemplateResponse(
            request,
            "admin/onboarding/start.html",
            _context(request, form=form, error=f"The chart cannot be applied: {message}"),
            status=400,
        )
    diff = result.diff
    if confirm is not None and confirm.get("fingerprint") != diff.fingerprint:
        confirm = None  # the tenant changed while the choices were checked: choose again on the new diff
    chosen = (
        confirm["leavers"]
        if confirm is not None
        else {key[len(LEAVER_FIELD) :]: value for key, value in request.POST.items() if key.startswith(LEAVER_FIELD)}
    )
    signed = None if confirm is None else {key: confirm[key] for key in ("leavers", "delete_scope_memories")}
    context = _context(
        request,
        title=f"Review: onboard {plan.tenant_slug}",
        diff=diff,
        result=result,
        chart_text=text,
        sync=sync,
        token=_token(request=request, plan=plan, text=text, sync=sync, fingerprint=diff.fingerprint, choices=signed),
        confirming=signed is not None,
        delete_scope_memories=bool(signed and signed["delete_scope_memories"]),
        policy_rows=[(change.field, _json(change.old), _json(change.new)) for change in diff.policies],
        leaver_rows=[(leaver, chosen.get(leaver.user_id)) for leaver in diff.leavers],
        leaver_field=LEAVER_FIELD,
        may_erase=_may_erase(request.user),
        error=error,
    )
    return TemplateResponse(request, "admin/onboarding/diff.html", context, status=status)


def _json(value) -> str:
    return "—" if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _normalised(text: str) -> str:
    """Line ends as ``\n``: a browser sends a textarea's text back with CRLF, and the reviewed chart's hash must
    match the text the apply receives."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _posted(request):
    """The POST data and files, or None when the body is larger than Django accepts (then nothing is parsed)."""
    try:
        return request.POST, request.FILES
    except RequestDataTooBig:
        return None


def _friendly_when_too_big(view):
    """``view`` with its CSRF check run inside it rather than by the middleware, so that a body larger than Django
    accepts (``DATA_UPLOAD_MAX_MEMORY_SIZE``) is the wizard's own message: the check reads the form, and Django
    refuses an oversized one with its bare 400 page before any view runs. The check is as strict (a request
    without a valid token gets the CSRF 403 and reaches nothing); only the refusal of an oversized body — which
    reads and writes nothing — is shown before it."""
    protected = csrf_protect(view)

    @functools.wraps(view)
    def checked(request, *args, **kwargs):
        try:
            return protected(request, *args, **kwargs)
        except RequestDataTooBig:  # staff only (admin_view), and the page shows nothing but the refusal
            error = f"The upload is larger than the wizard accepts ({_limit()}): nothing was read or written."
            return TemplateResponse(
                request, "admin/onboarding/start.html", _context(request, form=ChartForm(), error=error), status=413
            )

    return csrf_exempt(checked)


@_friendly_when_too_big
def onboarding_start(request):
    """Step 1: paste or upload a chart. A valid one is dry-run and its diff shown (step 2)."""
    if not may_onboard(request.user):
        raise PermissionDenied("Onboarding needs a superuser or a tenant admin.")
    if request.method != "POST":
        return TemplateResponse(request, "admin/onboarding/start.html", _context(request, form=ChartForm()))
    posted = _posted(request)
    if posted is None:
        form = ChartForm()
        error = f"The upload is larger than the wizard accepts ({_limit()}): nothing was read or written."
        return TemplateResponse(
            request, "admin/onboarding/start.html", _context(request, form=form, error=error), status=413
        )
    form = ChartForm(*posted)
    if not form.is_valid():
        return TemplateResponse(request, "admin/onboarding/start.html", _context(request, form=form), status=400)
    plan, text, sync = form.cleaned_data["plan"], form.cleaned_data["text"], form.cleaned_data["sync"]
    if not _may_onboard_tenant(request.user, plan.tenant_slug):
        return TemplateResponse(
            request,
            "admin/onboarding/start.html",
            _context(request, form=ChartForm(initial={"sync": sync}), error=_foreign_chart_message(plan)),
            status=403,
        )
    return _review(request, plan=plan, text=text, sync=sync)


@_friendly_when_too_big
@require_POST
def onboarding_apply(request):
    """Step 3: apply the reviewed diff (one transaction), then show what was done and the new keys, once."""
    if not may_onboard(request.user):
        raise PermissionDenied("Onboarding needs a superuser or a tenant admin.")
    posted = _posted(request)
    if posted is None:
        error = f"The request is larger than the wizard accepts ({_limit()}): nothing was written."
        return TemplateResponse(
            request, "admin/onboarding/start.html", _context(request, form=ChartForm(), error=error), status=413
        )
    data = posted[0]
    text, token = _normalised(data.get("chart", "")), data.get("token", "")
    try:
        reviewed = signing.loads(token, salt=SIGNING_SALT, max_age=TOKEN_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one
        reviewed = None
    if (
        reviewed is None
        or reviewed.get("user") != request.user.pk
        or reviewed.get("chart") != hashlib.sha256(text.encode()).hexdigest()
    ):
        error = "This review expired or was altered: upload the chart again to see a fresh diff. Nothing was written."
        return TemplateResponse(
            request, "admin/onboarding/start.html", _context(request, form=ChartForm(), error=error), status=400
        )
    sync = bool(reviewed["sync"])
    try:
        plan = parse_org_chart(text)
    except OrgChartError as exc:  # the token vouches for the text, so only a parser change could land here
        return TemplateResponse(
            request,
            "admin/onboarding/start.html",
            _context(request, form=ChartForm(), error=f"The chart cannot be used: {exc}"),
            status=400,
        )
    if not _may_onboard_tenant(request.user, plan.tenant_slug):
        return TemplateResponse(
            request,
            "admin/onboarding/start.html",
            _context(request, form=ChartForm(), error=_foreign_chart_message(plan)),
            status=403,
        )
    posted = {key[len(LEAVER_FIELD) :]: value for key, value in data.items() if key.startswith(LEAVER_FIELD)}
    delete_scope_memories = data.get("delete_scope_memories") == "on"
    signed = reviewed.get("choices")
    if signed is not None:  # the confirmed review: its signed choices are the ones applied, and only they
        if (posted and posted != signed["leavers"]) or (delete_scope_memories and not signed["delete_scope_memories"]):
            error = "These choices differ from the ones you confirmed: review the chart again. Nothing was written."
            return TemplateResponse(
                request, "admin/onboarding/start.html", _context(request, form=ChartForm(), error=error), status=400
            )
        leavers, delete_scope_memories = dict(signed["leavers"]), bool(signed["delete_scope_memories"])
    else:
        leavers = posted
    bad = sorted(user_id for user_id, choice in leavers.items() if choice not in LEAVER_CHOICES)
    if bad:
        return _review(
            request, plan=plan, text=text, sync=sync, error=f"Unknown choice for {', '.join(bad)}.", status=400
        )
    if any(choice == "erase" for choice in leavers.values()) and not _may_erase(request.user):
        return _review(
            request, plan=plan, text=text, sync=sync, error="Erasing members needs the erasure permission.", status=403
        )
    if sync and signed is None:
        confirming = _confirmation(plan=plan, reviewed=reviewed, leavers=leavers, delete=delete_scope_memories)
        if isinstance(confirming, str):
            return _review(request, plan=plan, text=text, sync=sync, error=confirming, status=400)
        if confirming is not None:
            return _review(request, plan=plan, text=text, sync=sync, confirm=confirming)
    try:
        result = tenant_onboard(
            plan=plan,
            sync=sync,
            leavers=leavers,
            delete_scope_memories=delete_scope_memories,
            expected_fingerprint=reviewed["fingerprint"],
        )
    except StaleDiff:
        error = (
            f"Tenant {plan.tenant_slug} changed since this diff was made, so nothing was written. Below is the diff "
            f"as it stands now: review it and apply again."
        )
        return _review(request, plan=plan, text=text, sync=sync, error=error, status=409)
    except (OrgChartError, DomainError) as exc:
        message = exc.message if isinstance(exc, DomainError) else str(exc)
        return _review(request, plan=plan, text=text, sync=sync, error=f"{message}. Nothing was written.", status=400)
    context = _context(request, title=f"Onboarded {plan.tenant_slug}", result=result, diff=result.diff)
    context["tenant"] = Tenant.objects.filter(slug=plan.tenant_slug).first()
    if context["tenant"] is not None and result.diff.changed:
        _log(request, context["tenant"], result)
    return TemplateResponse(request, "admin/onboarding/done.html", context)


def _confirmation(*, plan: OrgChartPlan, reviewed: dict, leavers: dict, delete: bool) -> dict | str | None:
    """For a re-sync reviewed without signed choices: None when it has nothing to choose (no leavers, no memories
    on removed nodes: it applies at once); else the choices checked against the reviewed diff, to be confirmed on
    a page whose token signs them; or the refusal's message."""
    diff = onboarding_diff(plan=plan, sync=True)
    if not diff.leavers and not diff.removed_scope_memories:
        return None
    if diff.fingerprint != reviewed["fingerprint"]:
        # what the admin chose for is no longer the diff: show the new one (the apply would refuse it anyway)
        return f"Tenant {plan.tenant_slug} changed since this diff was made, so nothing was written: choose again."
    try:
        checked = onboarding_check_choices(diff=diff, leavers=leavers, delete_scope_memories=delete)
    except DomainError as exc:
        return f"{exc.message}. Nothing was written."
    return {"fingerprint": diff.fingerprint, "leavers": checked, "delete_scope_memories": delete}


def _log(request, tenant: Tenant, result) -> None:
    """One admin-log row on the tenant: who onboarded it, when, and how much changed. Counts only, never user ids:
    an erased leaver's id must not outlive them in the log."""
    diff = result.diff
    counts = {
        "scopes created": len(diff.scopes_created),
        "scopes renamed": len(diff.scopes_renamed),
        "scopes moved": len(diff.scopes_moved),
        "scopes removed": len(diff.scopes_removed),
        "members added": len(diff.members_added),
        "members moved": len(diff.members_moved),
        "leavers": len(diff.leavers),
        "policy fields changed": len(diff.policies),
        "API keys created": len(result.api_keys),
    }
    summary = ", ".join(f"{count} {what}" for what, count in counts.items() if count)
    entry = LogEntry.objects.log_actions(
        user_id=request.user.pk,
        queryset=[tenant],
        action_flag=CHANGE if diff.tenant_exists else ADDITION,
        change_message=f"Onboarded from an org chart{' (re-sync)' if diff.sync else ''}: {summary or 'no change'}.",
        single_object=True,
    )
    admin_log_tenant_record(entries=[entry], tenant_ids=[tenant.pk])  # the tenant's audit log shows it
