"""Issue 11, finding 2: glossary expansion never raises, whatever the text and the keys (Unicode case folding
makes ``re.IGNORECASE`` match text whose ``casefold()`` is not a key: "aı", "Aİ", the Kelvin sign, ...).

The pure core is fuzzed with hypothesis; the write path is checked end to end on the real database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memories.indexing_text import expand_glossary


@pytest.mark.parametrize(
    ("text", "glossary", "expected"),
    [
        ("aı", {"ai": "artificial intelligence"}, "aı (artificial intelligence)"),
        ("Aİ rollout", {"AI": "artificial intelligence"}, "Aİ (artificial intelligence) rollout"),
        (
            "our apı and cı",
            {"api": "interface", "ci": "continuous integration"},
            "our apı (interface) and cı (continuous integration)",
        ),
        ("\u212a8s", {"k8s": "kubernetes"}, "\u212a8s (kubernetes)"),  # KELVIN SIGN folds to k under IGNORECASE
        ("ſre team", {"sre": "site reliability"}, "ſre (site reliability) team"),  # long s
        ("k8s and K8S", {"K8s": "kubernetes"}, "k8s (kubernetes) and K8S (kubernetes)"),
    ],
)
def test_case_variants_that_casefold_cannot_map_back_expand(text, glossary, expected):
    assert expand_glossary(text, glossary) == expected


def test_keys_that_casefold_alike_expand_once():
    assert expand_glossary("AI", {"ai": "one", "AI": "two"}) in {"AI (one)", "AI (two)"}


def test_a_glossary_that_is_not_a_mapping_or_has_odd_entries_is_ignored_not_raised():
    assert expand_glossary("ai", ["ai"]) == "ai"  # type: ignore[arg-type]
    assert expand_glossary("ai 7", {7: "seven", "": "empty", "ai": None}) == "ai (None) 7"  # type: ignore[dict-item]


_TRICKY = st.sampled_from(["ai", "AI", "aı", "Aİ", "İ", "ı", "ß", "SS", "ẞ", "\u212a", "ſ", "ǅ", "ﬁ", "-", " ", "k8s"])
_TEXT = st.lists(st.one_of(st.text(max_size=8), _TRICKY), max_size=12).map("".join)


_KEY = st.one_of(st.lists(_TRICKY, min_size=1, max_size=3).map("".join), st.text(max_size=6))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(text=_TEXT, glossary=st.dictionaries(_KEY, st.text(max_size=10), max_size=6))
def test_no_text_and_no_glossary_makes_expansion_raise(text, glossary):
    expanded = expand_glossary(text, glossary)

    # the original text survives: expansion only ever inserts " (...)" after a whole-word match
    assert isinstance(expanded, str)
    assert len(expanded) >= len(text)


@pytest.mark.django_db
def test_writing_and_searching_text_with_a_dotless_i_under_an_ai_glossary(acme):
    from rest_framework.test import APIClient

    from memories.models import Memory, Policy
    from memories.services import api_key_create
    from tests.conftest import remember

    Policy.objects.filter(tenant=acme, scope__isnull=True).update(glossary={"ai": "artificial intelligence"})
    memory = remember(acme, "The AI team ships the aı model; Aİ too.", user="albert")
    _, plain = api_key_create(tenant=acme, name="glossary-test", permissions=["read"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")

    response = api.post(
        "/api/v1/search", {"user_id": "albert", "query": "aı Aİ artificial intelligence"}, format="json"
    )

    assert Memory.objects.get(pk=memory.pk).search_vector is not None
    assert response.status_code == 200, response.content


def test_the_embedding_texts_of_a_memory_with_a_dotless_i_are_built():
    """The sweep embeds chunk texts built with the glossary: a batch holding such a memory used to fail whole."""
    from memories.models import Memory
    from memories.services.indexing import chunk_texts_for

    memory = Memory(title="Aİ plan", content="The aı rollout starts Monday.")

    assert chunk_texts_for(memory, {"ai": "artificial intelligence"}) == [
        "Aİ (artificial intelligence) plan. The aı (artificial intelligence) rollout starts Monday."
    ]
