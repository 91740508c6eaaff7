from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from orgmemory.api_urls import unknown_endpoint

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="admin:index"), name="home"),  # people start in the admin
    path("admin/", admin.site.urls),  # orgmemory.admin_site: the model screens and every custom admin page
    path("api/v1/", include("orgmemory.api_urls")),
    re_path(r"^api/v1\Z", unknown_endpoint),  # the prefix itself: a JSON 404, not an APPEND_SLASH redirect
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("metrics", include("memories.api.metrics")),  # Prometheus, for an admin API key (memories.api.metrics)
]

# A request Django itself refuses before any view (an empty or disallowed Host header, a malformed request) is a
# 400 like any other under /api/: the JSON error shape, not Django's HTML page.
handler400 = "orgmemory.api.exceptions.bad_request"
