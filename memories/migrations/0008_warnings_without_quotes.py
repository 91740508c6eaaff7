# A possible_contradiction warning quoted the other memory's text ("this may contradict memory 12: <its words>"):
# a copy of another author's words that outlived their erasure. Warnings now carry the id only; this rewrites the
# stored ones the same way. Data only.

import re

from django.db import migrations

_QUOTED = re.compile(r"^(this may contradict memory \d+): .*$", re.DOTALL)


def drop_quotes(apps, schema_editor):
    Memory = apps.get_model("memories", "Memory")
    for memory in Memory.objects.exclude(warnings=[]).only("pk", "warnings").iterator(chunk_size=500):
        if not isinstance(memory.warnings, list):
            continue
        changed = False
        for warning in memory.warnings:
            if isinstance(warning, dict) and isinstance(warning.get("message"), str):
                stripped = _QUOTED.sub(r"\1", warning["message"])
                if stripped != warning["message"]:
                    warning["message"], changed = stripped, True
        if changed:
            Memory.objects.filter(pk=memory.pk).update(warnings=memory.warnings)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0007_unique_live_content"),
    ]

    operations = [migrations.RunPython(drop_quotes, migrations.RunPython.noop)]
