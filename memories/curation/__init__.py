"""What admins curate with, kept in an app of its own (label ``curation``, migrations of its own): the tenant of
each admin log entry (the audit trail a tenant's admins and auditors read), the searches that found nothing relevant
(knowledge gaps), and the ``post_migrate`` hand-off that keeps the role groups of :mod:`memories.roles` current."""
