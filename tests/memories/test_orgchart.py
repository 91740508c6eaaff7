"""The pure org-chart parser: both formats and every bad-file case (no database)."""

import pytest

from memories.orgchart import NodePlan, OrgChartError, parse_org_chart
from tests.conftest import ACME_CHART

NUVEL = """
org_id: nuvel
levels: [user, team, division, org]
users:
  albert: {chain: [{level: team, id: platform}, {level: division, id: eng}, {level: org, id: nuvel}]}
  bea:
    chain: [{level: user, id: bea}, {level: team, id: platform}, {level: division, id: eng}, {level: org, id: nuvel}]
  carlos: {chain: [{level: division, id: sales}, {level: org, id: nuvel}]}
"""


def test_tree_format_gives_nodes_parents_first_and_members():
    plan = parse_org_chart(ACME_CHART)

    assert plan.tenant_slug == "acme"
    assert plan.levels == ("org", "division", "team", "user")
    assert plan.nodes == [
        NodePlan("org", "acme", "Acme Corp", None),
        NodePlan("division", "eu", "Europe", ("org", "acme")),
        NodePlan("team", "platform", "Platform", ("division", "eu")),
        NodePlan("team", "data", "Data", ("division", "eu")),
        NodePlan("division", "us", "Americas", ("org", "acme")),
        NodePlan("team", "sales", "Sales", ("division", "us")),
    ]
    assert plan.members == {
        "albert": ("team", "platform"),
        "bea": ("team", "platform"),
        "dora": ("team", "data"),
        "carlos": ("team", "sales"),
    }


def test_nuvel_format_orients_levels_and_builds_the_tree():
    plan = parse_org_chart(NUVEL)

    assert plan.tenant_slug == "nuvel"
    assert plan.levels == ("org", "division", "team", "user")
    assert plan.nodes == [
        NodePlan("org", "nuvel", "nuvel", None),
        NodePlan("division", "eng", "eng", ("org", "nuvel")),
        NodePlan("division", "sales", "sales", ("org", "nuvel")),
        NodePlan("team", "platform", "platform", ("division", "eng")),
    ]
    assert plan.members == {
        "albert": ("team", "platform"),
        "bea": ("team", "platform"),
        "carlos": ("division", "sales"),
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tenant: {slug: x}\ntree: [ {level: org, key: a", "malformed YAML at line"),
        ("- just\n- a list\n", "must be a YAML mapping"),
        ("foo: bar\n", "unknown format"),
        ("tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: planet, key: a}]", "unknown level 'planet'"),
        (
            "tenant: {slug: x}\nlevels: [org, team, user]\n"
            "tree: [{level: team, key: t, children: [{level: org, key: o}]}]",
            "level 'org' is not below its parent's level 'team' (team:t)",
        ),
        (
            "tenant: {slug: x}\nlevels: [org, team, user]\n"
            "tree: [{level: org, key: o, children: [{level: team, key: t}, {level: team, key: t}]}]",
            "duplicate key team:t",
        ),
        (
            "tenant: {slug: x}\nlevels: [org, team, user]\n"
            "tree: [{level: org, key: o, children: [{level: team, key: a, members: [bo]}, "
            "{level: team, key: b, members: [bo]}]}]",
            "member 'bo' is listed twice (also under team:a)",
        ),
        ("tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: org, key: 'bad key'}]", "key 'bad key' must be"),
        ("tenant: {slug: X_Y}\ntree: [{level: org, key: a}]", "tenant slug 'X_Y'"),
        ("tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: org, key: a, color: red}]", "unknown field(s) color"),
        (
            "tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: org, key: a}]\npolicies: {writable_levels: "
            "{agent: [moon]}}",
            "policies.writable_levels.agent: unknown level 'moon'",
        ),
        (
            "tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: org, key: a}]\napi_keys: [{name: k, "
            "permissions: [root]}]",
            "unknown permission(s) root",
        ),
        (
            "org_id: n\nlevels: [org, team, user]\nusers:\n"
            "  a: {chain: [{level: team, id: t}, {level: org, id: o1}]}\n"
            "  b: {chain: [{level: team, id: t}, {level: org, id: o2}]}\n",
            "team:t has conflicting parents (org:o1 elsewhere, org:o2 here)",
        ),
        (
            "org_id: n\nlevels: [org, team, user]\nusers:\n"
            "  a: {chain: [{level: team, id: t}, {level: team, id: t}]}\n",
            "cycle: team:t is its own parent",
        ),
        (
            "org_id: n\nlevels: [org, team, user]\nusers:\n  a: {chain: [{level: org, id: o}, {level: team, id: t}]}\n",
            "level 'org' is not below its parent's level 'team'",
        ),
        ("org_id: n\nusers:\n  a: {chain: []}\n", "users.a: needs a non-empty `chain`"),
        (
            "tenant: {slug: x}\nlevels: [org, team, user]\n"
            "tree:\n  - &n {level: org, key: o, children: [{level: team, key: t, children: [*n]}]}\n",
            "the alias *n is inside its own anchor &n (a structure that contains itself)",
        ),
        (
            "tenant: {slug: x}\nlevels: [org, team, user, device]\ntree: [{level: org, key: o}]\n",
            "levels: 'device' below `user`; the user level must be the last",
        ),
        (
            "org_id: n\nlevels: [device, user, team, org]\nusers:\n"
            "  a: {chain: [{level: team, id: t}, {level: org, id: o}]}\n",
            "levels: 'device' below `user`",
        ),
        (
            "org_id: n\nlevels: [org, team, user]\nusers:\n"
            "  a: {chain: [{level: team, id: t}, {level: org, id: o}]}\n"
            "  a: {chain: [{level: team, id: u}, {level: org, id: o}]}\n",
            "line 5: 'a' appears twice in one mapping (first at line 4)",
        ),
        (
            "tenant: {slug: x}\nlevels: [org, user]\ntree: [{level: org, key: a, key: b}]\n",
            "line 3: 'key' appears twice in one mapping (first at line 3)",
        ),
    ],
)
def test_bad_files_name_the_problem(text, message):
    with pytest.raises(OrgChartError) as excinfo:
        parse_org_chart(text)

    assert message in str(excinfo.value)
