"""The installable app and its pushes: the web app manifest, the service worker at ``/sw.js`` (its scope
is the whole site), the offline page, the badge count, and the Reminders page's "This device" section
(turn push on, remove a device, e-mail / push per kind). Thin: each calls one service."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from handsite.push import messages, services

LANGUAGES = [code for code, _name in settings.LANGUAGES]


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest in the visitor's language (name, direction), start page: the player's games."""
    context = {"start_url": reverse("home"), "icons": _icons()}
    response = render(request, "handsite/manifest.webmanifest", context)
    response["Content-Type"] = "application/manifest+json; charset=utf-8"
    return response


def _icons() -> list[dict]:
    icons = [
        {"src": static(f"handsite/icons/icon-{size}.png"), "sizes": f"{size}x{size}", "purpose": "any"}
        for size in (192, 512)
    ]
    icons += [
        {
            "src": static(f"handsite/icons/maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    return [{**icon, "type": "image/png"} for icon in icons]


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request):
    """``/sw.js``: at the root, so its scope is the whole site (``Service-Worker-Allowed: /`` says so
    too). Never cached by HTTP: a new version of the site is a new worker."""
    offline = {code: reverse("offline_page", args=[code]) for code in LANGUAGES}
    context = {
        "offline": json.dumps(offline),
        "precache": json.dumps([static("handsite/site.css")]),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "static_prefix": json.dumps(
            settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL
        ),
        "icon": json.dumps(static("handsite/icons/icon-192.png")),
        "badge_icon": json.dumps(static("handsite/icons/badge-96.png")),
        "version": json.dumps(settings.HANDSITE_PWA_VERSION),
    }
    response = render(request, "handsite/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def offline_page(request, language: str):
    """What the worker shows for a page it cannot fetch without a connection (cached at install)."""
    if language not in LANGUAGES:
        raise Http404
    with translation.override(language):
        return render(request, "handsite/offline.html", {"language": language})


@require_GET
def badge(request):
    """How many games wait on the person (the installed app's icon badge, refreshed on each visit)."""
    count = messages.badge_count(request.user.pk) if request.user.is_authenticated else 0
    return JsonResponse({"count": count})


@login_required
@require_POST
def subscribe(request):
    """The browser's push subscription (JSON from push.js) for this device."""
    try:
        data = json.loads(request.body or b"{}")
        keys = data.get("keys") or {}
        endpoint, p256dh, auth = (
            str(data.get("endpoint", "")),
            str(keys.get("p256dh", "")),
            str(keys.get("auth", "")),
        )
    except (ValueError, AttributeError):
        return JsonResponse(
            {"error": _("This browser's push subscription could not be used. Try again.")}, status=400
        )
    try:
        device = services.subscribe(
            request.user,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            user_agent=request.headers.get("User-Agent", ""),
        )
    except services.PushError as error:
        return JsonResponse({"error": error.message}, status=400)
    return JsonResponse({"device": device.pk, "label": device.label})


@login_required
@require_POST
def remove_device(request, device_id: int):
    if services.remove_device(request.user, device_id):
        flash.success(request, _("That device gets no more push notifications."))
    return redirect(reverse("notification_settings") + "#devices")


@login_required
@require_POST
def channels(request):
    """E-mail, push, both or none, per kind."""
    services.set_channels(
        request.user,
        {topic.name: request.POST.get(f"channel-{topic.name}", "") for topic in messages.topics()},
    )
    flash.success(request, _("Your choices are saved."))
    return redirect(reverse("notification_settings") + "#devices")
