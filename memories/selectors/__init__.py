from memories.selectors.tenancy import (
    member_get,
    project_name_clean,
    project_nodes,
    scope_chain_for,
    scope_chain_for_scope,
    scope_get_by_tag,
    scope_subtree,
    scope_tree_with_member_counts,
    tenant_get,
)

__all__ = [
    "member_get",
    "project_name_clean",
    "project_nodes",
    "scope_chain_for",
    "scope_chain_for_scope",
    "scope_get_by_tag",
    "scope_subtree",
    "scope_tree_with_member_counts",
    "tenant_get",
]
