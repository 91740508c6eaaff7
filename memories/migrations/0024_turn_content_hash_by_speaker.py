"""A conversation turn's exact-dedup key includes its speaker when someone other than the member said it
(``memories.services.memory.validation.content_hash``): the same words from two people are two statements. Stored turns get the key they would be written with now, so that
a re-sent turn of the same speaker is still found as a twin and another speaker's identical turn is not. The keys
only grow more distinct, so the live-content unique constraint holds throughout.

The key's formula is repeated here, frozen, as migrations must not follow the code they were written against."""

import hashlib
import unicodedata

from django.db import migrations

BATCH = 2000


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _key(content: str, speaker: str) -> str:
    who = _folded(speaker)
    who = "" if who == "user" else who  # the member's own turns are keyed as their notes are
    keyed = f"{who}\x1f{_folded(content)}" if who else _folded(content)
    return hashlib.sha256(keyed.encode("utf-8")).hexdigest()


def forward(apps, schema_editor):
    Memory = apps.get_model("memories", "Memory")
    turns = Memory.objects.exclude(source_session="").only("id", "content", "metadata", "content_hash")
    changed = []
    for memory in turns.iterator(chunk_size=BATCH):
        speaker = memory.metadata.get("author") if isinstance(memory.metadata, dict) else ""
        key = _key(memory.content, str(speaker or ""))
        if key != memory.content_hash:
            memory.content_hash = key
            changed.append(memory)
        if len(changed) >= BATCH:
            Memory.objects.bulk_update(changed, ["content_hash"])
            changed = []
    if changed:
        Memory.objects.bulk_update(changed, ["content_hash"])


class Migration(migrations.Migration):
    dependencies = [("memories", "0023_memory_speaker_first_name_key")]

    # backwards the keys stay: two speakers' identical turns could not both hold a text-only key
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
