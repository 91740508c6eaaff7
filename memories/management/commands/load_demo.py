"""Development only: a superuser for the admin, and the demo tenant (org chart, API keys, memories) loaded once.

The demo is loaded on the first ``make run`` and then left alone: later starts keep what users did to it — edits,
deletions, GDPR erasures — instead of re-importing the fixtures over them, and say what they kept. ``--force``
loads it again.

Output: a summary (counts; ``--verbose``: every change of the chart), then the hand-over block
(``orgmemory.handover``: address, superuser, the demo keys, what to try). With ``--handover`` (``make run``) the
block is left to the development server, which prints it last, once it listens."""

import json
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from memories.models import ApiKey, Member, Memory, Tenant
from memories.orgchart import PERMISSIONS, OrgChartError, parse_org_chart, read_org_chart
from memories.services import tenant_onboard
from memories.services.onboarding import onboarding_diff_lines
from orgmemory.errors import DomainError
from orgmemory.handover import (
    DEV_PASSWORD_FILE,
    DEV_SUPERUSER,
    DemoKey,
    Handover,
    handover_block,
    handover_write,
)

DEMO_CHART = Path(settings.BASE_DIR) / "fixtures" / "demo_org.yaml"
DEMO_MEMORIES = Path(settings.BASE_DIR) / "fixtures" / "demo_memories.jsonl"
MARKER_FILE = "demo_loaded.json"
DEFAULT_URL = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = (
        "Create the development superuser and, once, the demo tenant from fixtures/demo_org.yaml and "
        "fixtures/demo_memories.jsonl (later runs keep what users changed; --force loads it again)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", default="northwind", help="the demo chart's tenant slug")
        parser.add_argument("--force", action="store_true", help="apply the chart and import the memories again")
        parser.add_argument("--verbose", action="store_true", help="list every change the chart made")
        parser.add_argument(
            "--handover",
            action="store_true",
            help="leave the closing block (address, password, keys) to the development server (make run)",
        )
        parser.add_argument("--url", default=DEFAULT_URL, help="the server's address, for the closing block")

    def handle(self, *args, tenant: str, force: bool, **options):
        if settings.ORGMEMORY_ENV != "development":
            raise CommandError("load_demo is for ORGMEMORY_ENV=development only.")
        verbose = options["verbose"] or options["verbosity"] >= 2
        username, password, created = self._superuser()
        self.stdout.write(
            f"Superuser {username}: " + ("created" if created else "kept (its password is in the block below)")
        )
        loaded_at = None if force else _loaded(tenant)
        keys: list[dict[str, str]] = []
        if loaded_at:
            state = "kept"
        else:
            state = "reloaded" if force else "created"
            keys = self._onboard(verbose=verbose)
            call_command("import_memories", str(DEMO_MEMORIES), tenant=tenant, stdout=self.stdout)
            loaded_at = _mark_loaded(tenant)
        handover = _handover(tenant, state=state, loaded_at=loaded_at, plain_keys=keys)
        if state == "kept":
            self.stdout.write(
                f"Demo tenant {tenant}: loaded {loaded_at}, not loaded again; kept as it is now: "
                f"{handover.memories} memories, {handover.members} members, {len(handover.keys)} active API "
                "key(s) (what was changed or erased since stays; load_demo --force loads it again)"
            )
        if options["handover"]:
            handover_write(data_dir=settings.ORGMEMORY_DATA_DIR, handover=handover)
            self.stdout.write("The development server prints the address, the password and the keys when it is up.")
            return
        self.stdout.write(handover_block(url=options["url"], handover=handover, password=password))

    def _onboard(self, *, verbose: bool) -> list[dict[str, str]]:
        """Apply the demo chart: one summary line (``verbose``: each change); the keys it created, in plain."""
        try:
            result = tenant_onboard(plan=parse_org_chart(read_org_chart(DEMO_CHART)))
        except (OrgChartError, DomainError) as exc:
            raise CommandError(f"{DEMO_CHART}: {exc}")
        done = []
        for verb, counts in (("created", result.created), ("updated", result.updated)):
            counted = [_counted(count, kind) for kind, count in counts.items() if count and kind != "tenant"]
            if counted:
                done.append(f"{verb} {', '.join(counted)}")
        self.stdout.write(
            f"Demo tenant {result.tenant}: {'; '.join(done) or 'the chart changed nothing'}"
            + ("" if verbose else " (load_demo --verbose lists each change)")
        )
        if verbose:
            for line in onboarding_diff_lines(result.diff):
                self.stdout.write(f"  - {line}")
        return result.api_keys

    def _superuser(self) -> tuple[str, str, bool]:
        """The development superuser and its password (kept in the data folder); whether it was created now."""
        settings.ORGMEMORY_DATA_DIR.mkdir(parents=True, exist_ok=True)
        path = settings.ORGMEMORY_DATA_DIR / DEV_PASSWORD_FILE
        if not path.exists():
            path.write_text(secrets.token_urlsafe(12))
            path.chmod(0o600)
        password = path.read_text().strip()
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEV_SUPERUSER, defaults={"is_staff": True, "is_superuser": True}
        )
        if not user.check_password(password) or not user.is_superuser:
            user.is_staff = user.is_superuser = True
            user.set_password(password)
            user.save()
        return DEV_SUPERUSER, password, created


_NOUNS = {"scopes": "scope", "members": "member", "policies": "policy", "api_keys": "API key"}


def _counted(count: int, kind: str) -> str:
    noun = _NOUNS.get(kind, kind)
    return f"{count} {noun}" if count == 1 else f"{count} {kind.replace('api_keys', 'API keys')}"


def _handover(slug: str, *, state: str, loaded_at: str, plain_keys: list[dict[str, str]]) -> Handover:
    """The tenant as it is now, with the keys created by this run in plain."""
    tenant = Tenant.objects.get(slug=slug)
    plain = {entry["name"]: entry["key"] for entry in plain_keys}
    active = ApiKey.objects.filter(tenant=tenant, revoked_at__isnull=True).order_by("pk")
    return Handover(
        tenant=tenant.slug,
        tenant_name=tenant.name,
        loaded=state,
        loaded_at=loaded_at,
        memories=Memory.objects.filter(tenant=tenant).count(),
        members=Member.objects.filter(tenant=tenant).count(),
        keys=[
            DemoKey(
                name=key.name,
                permissions=[permission for permission in PERMISSIONS if permission in key.permissions],
                key=plain.get(key.name),
            )
            for key in active
        ],
    )


def _marker() -> Path:
    return Path(settings.ORGMEMORY_DATA_DIR) / MARKER_FILE


def _loaded(slug: str) -> str | None:
    """When the demo was loaded into the tenant that still exists, else None. The marker names the tenant's row,
    so a database emptied or replaced under the same data folder gets the demo again."""
    try:
        marker = json.loads(_marker().read_text())
        if Tenant.objects.filter(pk=marker["tenant_id"], slug=slug).exists():
            return str(marker["loaded_at"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _mark_loaded(slug: str) -> str:
    tenant = Tenant.objects.get(slug=slug)
    loaded_at = timezone.now().isoformat(timespec="seconds")
    _marker().write_text(json.dumps({"tenant": slug, "tenant_id": tenant.pk, "loaded_at": loaded_at}))
    return loaded_at
