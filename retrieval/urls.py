from django.contrib import admin
from django.urls import path

from retrieval.views import playground

app_name = "retrieval"
urlpatterns = [path("", admin.site.admin_view(playground), name="playground")]
