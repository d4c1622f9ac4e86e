from django.urls import path

from handsite.push import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="web_manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/<str:language>/", views.offline_page, name="offline_page"),
    path("push/badge/", views.badge, name="push_badge"),
    path("push/subscribe/", views.subscribe, name="push_subscribe"),
    path("push/devices/<int:device_id>/remove/", views.remove_device, name="push_remove_device"),
    path("push/channels/", views.channels, name="push_channels"),
]
