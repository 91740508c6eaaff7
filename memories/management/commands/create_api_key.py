"""Create an API key for a tenant and print it (the only time it is shown)."""

import json

from django.core.management.base import BaseCommand, CommandError

from memories.selectors import scope_get_by_tag, tenant_get
from memories.services import api_key_create
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = "Create an API key: create_api_key --tenant T --name N [--permissions read,write] [--scope team:x]"

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument("--permissions", default="read,write", help="comma-separated: read,write,delete,admin")
        parser.add_argument("--scope", help="restrict the key to this subtree (a tag level:key)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, tenant: str, name: str, permissions: str, scope: str | None, **options):
        try:
            tenant_obj = tenant_get(slug=tenant)
            node = scope_get_by_tag(tenant=tenant_obj, tag=scope) if scope else None
            key, plain = api_key_create(
                tenant=tenant_obj,
                name=name,
                permissions=[p.strip() for p in permissions.split(",") if p.strip()],
                scope=node,
            )
        except DomainError as exc:
            raise CommandError(exc.message)
        except Exception as exc:  # e.g. the active-name unique constraint
            raise CommandError(f"cannot create key {name!r}: {exc}")
        if options["json"]:
            self.stdout.write(json.dumps({"name": key.name, "key": plain, "permissions": key.permissions}))
        else:
            self.stdout.write(plain)
