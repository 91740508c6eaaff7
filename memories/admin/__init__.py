from django.contrib import admin

from memories.admin import memory, tenancy  # noqa: F401  (importing them registers the admin screens)
from memories.admin.login import RateLimitedAdminAuthenticationForm

admin.site.login_form = RateLimitedAdminAuthenticationForm  # failed sign-ins are limited per address and username
