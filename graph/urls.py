"""The admin's graph page and its JSON endpoints, mounted at ``admin/graph/`` (before the admin's own URLs).

``admin.site.admin_view`` makes each view staff-only (others are sent to the admin login), CSRF-protected and
never cached; the views themselves keep every answer inside the user's tenants.
"""

from django.contrib import admin
from django.urls import path

from graph import views

app_name = "graph"

urlpatterns = [
    path("", admin.site.admin_view(views.graph_page), name="page"),
    path("data/", admin.site.admin_view(views.graph_data), name="data"),
    path("entities/", admin.site.admin_view(views.entity_search), name="entities"),
]
