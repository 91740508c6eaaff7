"""The audit trail's tenant and the knowledge gaps."""

from __future__ import annotations

from django.contrib.admin.models import LogEntry
from django.db import models

from memories.models import Member, Tenant
from memories.models.tenancy import TenantKeyed


class AdminLogTenant(models.Model):
    """The tenant an admin log entry is about, written when the entry is (see ``TenantScopedModelAdmin``).

    Django's ``LogEntry`` names its object by content type and id only: once the object is deleted (or erased) its
    tenant could not be found again, and "who deleted that key" is what an audit asks. The tenant is kept here so
    that a tenant's admins and auditors read their tenant's entries, deletions included, and nobody else's."""

    log_entry = models.OneToOneField(LogEntry, on_delete=models.CASCADE, primary_key=True, related_name="+")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")

    class Meta:
        # the audit page lists one tenant's entries, newest first (log entry ids grow with time)
        indexes = [models.Index(fields=["tenant", "-log_entry"], name="adminlog_by_tenant")]

    def __str__(self) -> str:
        return f"log entry {self.log_entry_id} of tenant {self.tenant_id}"


class SearchGap(TenantKeyed, models.Model):
    """A search (or recall) that found nothing relevant: one row per member and normalised query, counted.

    Bounded: at most ``memories.curation.services.GAPS_PER_TENANT`` rows a tenant (the least recently seen go first).
    Tied to the member who searched so that erasing them removes their queries too (the foreign key cascades)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    # (tenant_id, member_id) → member in the database: curation 0004 (TenantKeyed, docs/SCALING.md)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    query = models.CharField(max_length=200, help_text="Case-folded, whitespace-collapsed, cut at 200 characters.")
    count = models.PositiveIntegerField(default=1)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "member", "query"], name="searchgap_unique_member_query")
        ]
        # pruning keeps the newest rows of a tenant
        indexes = [models.Index(fields=["tenant", "-last_seen"], name="searchgap_by_recency")]

    def __str__(self) -> str:
        return f"{self.query} ×{self.count}"
