"""Development only: a superuser for the admin and the demo tenant's memories (idempotent)."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

DEMO_MEMORIES = Path(settings.BASE_DIR) / "fixtures" / "demo_memories.jsonl"


class Command(BaseCommand):
    help = "Create the development superuser and load fixtures/demo_memories.jsonl into the demo tenant."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", default="northwind")

    def handle(self, *args, tenant: str, **options):
        if settings.ORGMEMORY_ENV != "development":
            raise CommandError("load_demo is for ORGMEMORY_ENV=development only.")
        username, password = self._superuser()
        if DEMO_MEMORIES.exists() and _has_command("import_memories"):
            call_command("import_memories", str(DEMO_MEMORIES), tenant=tenant, stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS(f"Admin: /admin/  user {username}  password {password}"))

    def _superuser(self) -> tuple[str, str]:
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


def _has_command(name: str) -> bool:
    from django.core.management import get_commands

    return name in get_commands()
