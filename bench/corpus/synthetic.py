"""Short synthetic memory texts for the throughput benchmarks (``bench_ingest``, ``bench_embedder``): pure and
seeded, so two runs embed and write the same texts."""

from __future__ import annotations

import random

_PEOPLE = ["Alice Smith", "Bob Lee", "Carla Diaz", "Deniz Kaya", "Emeka Obi", "Fatima Khan", "Goran Ilic", "Hana Sato"]
_TOPICS = [
    "the billing service",
    "the k8s cluster",
    "on-call",
    "the Q3 roadmap",
    "the data warehouse",
    "SSO",
    "the mobile release",
    "customer onboarding",
    "the incident review",
    "the EU region",
]
_VERBS = ["owns", "migrated", "reviewed", "is rewriting", "documented", "deprecated", "load-tested", "paged on"]


def synthetic_text(rng: random.Random, index: int) -> str:
    """Believable, varied memory text; every 10th one is long (several chunks)."""
    sentences = []
    count = rng.randint(1, 4) if index % 10 else rng.randint(25, 40)
    for _ in range(count):
        sentences.append(
            f"{rng.choice(_PEOPLE)} {rng.choice(_VERBS)} {rng.choice(_TOPICS)} on {rng.randint(1, 28)} "
            f"{rng.choice(['March', 'June', 'September', 'November'])} (ticket OPS-{rng.randint(100, 99999)})."
        )
    return f"Note {index}: " + " ".join(sentences)
