"""Move a tenant's stored vectors to another embedder; its searches switch when every vector is ready."""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from memories.embedding import EMBEDDERS, EmbedderUnavailable, canonical_kind, configured_kind, make_embedder
from memories.embedding.reembed import BATCH_SIZE, tenant_reembed
from memories.selectors import tenant_get
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = (
        "Re-embed every chunk of a tenant with another embedder (default: ORGMEMORY_EMBEDDER). The new vectors are "
        "written beside the ones search reads; the tenant switches to them in one transaction at the end. "
        "Interrupted, run it again: it continues where it stopped."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True, help="the tenant's slug")
        parser.add_argument("--embedder", default=None, help=f"one of {', '.join(EMBEDDERS)}")
        parser.add_argument("--batch-size", type=int, default=BATCH_SIZE, help="chunks per model call and commit")

    def handle(self, *args, tenant: str, embedder: str | None, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        kind = canonical_kind(embedder) if embedder else configured_kind()
        if kind not in EMBEDDERS:
            raise CommandError(f"unknown embedder {embedder!r} (one of {', '.join(EMBEDDERS)})")
        try:
            tenant_obj = tenant_get(slug=tenant)
            model = make_embedder(kind)
        except (DomainError, EmbedderUnavailable) as exc:
            raise CommandError(str(exc))
        progress = tqdm(desc=f"{tenant_obj.slug} → {kind}", unit="chunk", file=sys.stderr, disable=not _tty())

        def on_start(total: int, done: int) -> None:
            progress.reset(total=total)
            progress.update(done)

        started = time.perf_counter()
        try:
            result = tenant_reembed(
                tenant=tenant_obj, embedder=model, batch_size=batch_size, on_start=on_start, on_batch=progress.update
            )
        except DomainError as exc:
            raise CommandError(str(exc))
        finally:
            progress.close()
        seconds = time.perf_counter() - started
        if not result.switched:
            self.stdout.write(f"{tenant_obj.slug}: its vectors are already from {kind}; nothing to do")
            return
        rate = result.embedded / seconds if seconds else 0.0
        self.stdout.write(
            f"{tenant_obj.slug}: {result.chunks} chunks now from {kind} ({result.model}); {result.embedded} embedded "
            f"by this run in {seconds:.1f} s ({rate:.1f}/s); its searches embed with {kind}"
        )


def _tty() -> bool:
    return sys.stderr.isatty()
