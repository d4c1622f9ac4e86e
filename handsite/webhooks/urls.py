from django.urls import path

from handsite.webhooks import views

urlpatterns = [
    path("groups/<slug:group_slug>/chat-ping/", views.group_webhook, name="group_webhook"),
]
