from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/graph/", include("graph.urls")),  # the graph page; before the admin, which owns admin/<app>/
    path("admin/search/", include("retrieval.urls")),  # the search playground
    path("admin/", admin.site.urls),
    path("api/v1/", include("orgmemory.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
