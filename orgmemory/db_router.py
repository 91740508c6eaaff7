"""The database router used when ``DATABASE_REPLICA_URLS`` is set: ORM reads inside a routed read view go to the
request's replica (:mod:`orgmemory.db_routing`), every other read and every write to the primary, and only the
primary is ever migrated."""

from __future__ import annotations

from orgmemory.db_routing import PRIMARY, current_read_alias


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        return current_read_alias()

    def db_for_write(self, model, **hints):
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the replicas are copies of the primary: every object lives in the same database

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY
