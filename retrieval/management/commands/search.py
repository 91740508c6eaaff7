"""Search a tenant's memories as one member and print the ranked results with their explanation."""

from __future__ import annotations

import argparse
import json

from django.core.management.base import BaseCommand, CommandError

from memories.selectors import tenant_get
from orgmemory.errors import DomainError
from retrieval.llm import llm_from_settings
from retrieval.presenters import result_as_dict
from retrieval.services import DEFAULT_AUTOCUT, SearchOptions, search_memories


class Command(BaseCommand):
    help = "Search as a member: ranked results with per-arm ranks, an answer and gaps."

    def add_arguments(self, parser):
        parser.add_argument("query")
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--user", required=True, help="the member's user_id")
        parser.add_argument("--top-k", type=int, default=5)
        parser.add_argument("--autocut", action=argparse.BooleanOptionalAction, default=DEFAULT_AUTOCUT)
        parser.add_argument("--no-answer", action="store_true")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, query: str, tenant: str, user: str, top_k: int, **options):
        try:
            tenant_obj = tenant_get(slug=tenant)
            result = search_memories(
                tenant=tenant_obj,
                user_id=user,
                query=query,
                options=SearchOptions(
                    top_k=top_k,
                    autocut=options["autocut"],
                    explain=True,
                    synthesize=not options["no_answer"],
                    gaps=True,
                    track_access=False,
                ),
                llm=llm_from_settings(),
            )
        except DomainError as exc:
            raise CommandError(exc.message)
        data = result_as_dict(result)
        if options["json"]:
            self.stdout.write(json.dumps(data, default=str))
            return
        if result.relational:
            rq = result.relational
            self.stdout.write(f"relational: {rq.relationship} {rq.direction} {rq.seed!r}")
        if result.degraded:
            self.stdout.write(self.style.WARNING(f"degraded: {', '.join(result.degraded)}"))
        for position, row in enumerate(data["results"], start=1):
            ranks = row["explain"]["ranks"]
            arms = " ".join(f"{arm[0]}{'-' if rank is None else rank}" for arm, rank in ranks.items())
            title = f"{row['title']}: " if row["title"] else ""
            self.stdout.write(
                f"{position:>2}. {row['score']:.3f} [{arms}] tier {row['explain']['tier']:.2f} "
                f"{row['scope']['tag']:<18} #{row['id']} {title}{row['content'][:100]!r}"
            )
        if "answer" in data:
            self.stdout.write(self.style.SUCCESS(f"\nanswer (llm={data['answer']['used_llm']}):"))
            self.stdout.write(data["answer"]["text"])
        gaps = data["gaps"]
        self.stdout.write(
            f"\nconfidence {data['confidence']:.2f}; unknown terms {gaps['unknown_terms']}; "
            f"stale {gaps['stale_entities']}; contradictions {gaps['contradictions']}"
        )
