from django.contrib import admin

from memories.admin import audit, memory, tenancy  # noqa: F401  (importing them registers the admin screens)
from memories.admin.dashboard import install_index_dashboard
from memories.admin.login import RateLimitedAdminAuthenticationForm

admin.site.login_form = RateLimitedAdminAuthenticationForm  # failed sign-ins are limited per address and username
install_index_dashboard(admin.site)  # the index shows the tenant dashboard (or a Dashboard link per tenant)
