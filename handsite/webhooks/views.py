"""The group's chat ping page (owners and admins): set, replace or remove the webhook. The URL is never
shown back."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from handsite.access import group_view
from handsite.webhooks import services
from handsite.webhooks.forms import WebhookForm
from handsite.webhooks.models import GroupWebhook


@group_view(manage=True)
@require_http_methods(["GET", "POST"])
def group_webhook(request, group, membership):
    form = WebhookForm()
    if request.method == "POST" and request.POST.get("do") == "remove":
        services.remove_webhook(actor_membership=membership)
        messages.success(request, _("The chat ping is removed."))
        return redirect("group_webhook", group.slug)
    if request.method == "POST":
        form = WebhookForm(request.POST)
        if form.is_valid():
            try:
                services.set_webhook(actor_membership=membership, **form.cleaned_data)
            except services.WebhookError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("Saved. The group's chat hears whose turn it is."))
                return redirect("group_webhook", group.slug)
    webhook = GroupWebhook.objects.filter(group=group).select_related("created_by").first()
    return render(request, "handsite/group_webhook.html", {"group": group, "webhook": webhook, "form": form})
