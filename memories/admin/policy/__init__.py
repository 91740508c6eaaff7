"""The policy admin: a tenant's default policy and its per-scope overrides, edited as forms — who may write where as
checkboxes per author kind and level, tier boosts and retention as number fields per level and kind with the
defaults shown, the glossary as a table of acronym → expansion rows. The JSON fields stay the storage: the form
reads them into its inputs and writes them back, each value judged by ``memories.policy_rules`` and its reason shown
on the input it concerns.

Each JSON field is a group of inputs with an *inherit* box. Ticked, the field is stored null and inherits (the
built-in defaults for the tenant policy; the tenant policy and the overrides above the node for an override), and
the inputs show what it inherits; unticked, the inputs are the value. A group left as it was keeps its stored value
exactly. Adding a policy takes two steps, as Django's user admin does: the tenant and the node first, then this
form, whose inputs depend on the tenant's levels.

Modules: ``admin`` (the registered :class:`PolicyAdmin`), ``forms`` (the add form, the change form of a tenant's
levels and how it reads its inputs back), ``glossary`` (the acronym rows), ``common`` (input names, what a null field
inherits, a field in words). Importing this package registers the admin.
"""

from __future__ import annotations

from memories.admin.policy.admin import PolicyAdmin
from memories.admin.policy.forms import PolicyAddForm, PolicyForm, PolicyInputs, policy_form_class
from memories.admin.policy.glossary import GlossaryFormSet

__all__ = ["GlossaryFormSet", "PolicyAddForm", "PolicyAdmin", "PolicyForm", "PolicyInputs", "policy_form_class"]
