"""Development only: a superuser for the admin, and the demo tenant (org chart, API keys, memories) loaded once.

The demo is loaded on the first ``make run`` and then left alone: later starts keep what users did to it — edits,
deletions, GDPR erasures — instead of re-importing the fixtures over them. ``--force`` loads it again."""

import json
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from memories.models import Tenant

DEMO_CHART = Path(settings.BASE_DIR) / "fixtures" / "demo_org.yaml"
DEMO_MEMORIES = Path(settings.BASE_DIR) / "fixtures" / "demo_memories.jsonl"
MARKER_FILE = "demo_loaded.json"


class Command(BaseCommand):
    help = (
        "Create the development superuser and, once, the demo tenant from fixtures/demo_org.yaml and "
        "fixtures/demo_memories.jsonl (later runs keep what users changed; --force loads it again)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", default="northwind", help="the demo chart's tenant slug")
        parser.add_argument("--force", action="store_true", help="apply the chart and import the memories again")

    def handle(self, *args, tenant: str, force: bool, **options):
        if settings.ORGMEMORY_ENV != "development":
            raise CommandError("load_demo is for ORGMEMORY_ENV=development only.")
        username, password = self._superuser()
        loaded = None if force else _loaded(tenant)
        if loaded:
            self.stdout.write(
                f"Demo tenant {tenant} was loaded at {loaded}; not loaded again, so what was changed or erased "
                "since stays as it is (load_demo --force loads it again). API keys: create_api_key."
            )
        else:
            call_command("onboard_tenant", str(DEMO_CHART), stdout=self.stdout)
            call_command("import_memories", str(DEMO_MEMORIES), tenant=tenant, stdout=self.stdout)
            _mark_loaded(tenant)
        self.stdout.write(self.style.SUCCESS(f"Admin: /admin/  user {username}  password {password}"))

    def _superuser(self) -> tuple[str, str]:
        settings.ORGMEMORY_DATA_DIR.mkdir(parents=True, exist_ok=True)
        path = settings.ORGMEMORY_DATA_DIR / "dev_admin_password"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(12))
            path.chmod(0o600)
        password = path.read_text().strip()
        user_model = get_user_model()
        user, _ = user_model.objects.get_or_create(username="admin", defaults={"is_staff": True, "is_superuser": True})
        if not user.check_password(password) or not user.is_superuser:
            user.is_staff = user.is_superuser = True
            user.set_password(password)
            user.save()
        return "admin", password


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


def _mark_loaded(slug: str) -> None:
    tenant = Tenant.objects.get(slug=slug)
    marker = {"tenant": slug, "tenant_id": tenant.pk, "loaded_at": timezone.now().isoformat(timespec="seconds")}
    _marker().write_text(json.dumps(marker))
