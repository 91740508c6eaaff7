"""Re-embed (and/or re-extract the links of) a tenant's memories, in batches, resumably, with throughput."""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from tqdm import tqdm

from memories.hooks import index_steps
from memories.models import IndexState, Memory
from memories.selectors import tenant_get
from orgmemory.errors import DomainError


class Command(BaseCommand):
    help = (
        "Rebuild embeddings (--embeddings) and/or graph links (--links) for a tenant. Rows are first marked "
        "pending, then processed in id order; an interrupted run resumes with --only-pending."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--embeddings", action="store_true")
        parser.add_argument("--links", action="store_true")
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--only-pending", action="store_true", help="resume: only rows not yet re-indexed")

    def handle(self, *args, tenant: str, embeddings: bool, links: bool, batch_size: int, only_pending: bool, **opts):
        if not (embeddings or links):
            embeddings = links = True
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        try:
            tenant_obj = tenant_get(slug=tenant)
        except DomainError as exc:
            raise CommandError(str(exc))
        memories = Memory.objects.for_tenant(tenant_obj)
        steps = index_steps()  # registered by the apps that own them: embeddings (memories), links (graph)
        for name, wanted in (("embeddings", embeddings), ("links", links)):
            if wanted and name not in steps:
                raise CommandError(f"--{name} needs an installed app that registers the {name!r} index step")
        for name, wanted in (("embeddings", embeddings), ("links", links)):
            if wanted:
                step = steps[name]
                self._run(memories, step.state_field, batch_size, only_pending, step.run, name)

    def _run(self, memories, state_field: str, batch_size: int, only_pending: bool, service, label: str) -> None:
        if not only_pending:
            memories.update(**{state_field: IndexState.PENDING})
        todo = memories.filter(~Q(**{state_field: IndexState.READY}))
        total = todo.count()
        progress = tqdm(total=total, desc=label, unit="memory", file=sys.stderr)
        started = time.perf_counter()
        done = last_id = 0
        while True:
            ids = list(todo.filter(id__gt=last_id).order_by("id").values_list("id", flat=True)[:batch_size])
            if not ids:
                break
            service(memory_ids=ids)
            last_id = ids[-1]
            done += len(ids)
            progress.update(len(ids))
        progress.close()
        seconds = time.perf_counter() - started
        failed = memories.filter(**{state_field: IndexState.FAILED}).count()
        rate = done / seconds if seconds else 0.0
        self.stdout.write(f"{label}: {done} memories in {seconds:.1f} s ({rate:.1f}/s), {failed} failed")
