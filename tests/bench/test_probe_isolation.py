"""The randomised isolation probe (the full-size run is `manage.py probe_isolation`, see the README)."""

import json
from io import StringIO

from django.core.management import call_command


def test_isolation_probe_finds_no_leak(db):
    out = StringIO()
    call_command("probe_isolation", searches=100, memories=40, tenants=2, json=True, stdout=out)

    report = json.loads(out.getvalue())
    assert report["violations"] == 0
    assert report["results_checked"] > 150
