"""Pages of notifications: the in-site list, the settings page (e-mails, reminders, digest, quiet hours,
time zone, vacation) and the unsubscribe link from e-mails (works without logging in)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from handsite import notification_prefs, notifications, timefmt
from handsite.models import Notification, NotificationPreference
from handsite.services import outbox, preferences
from handsite.zones import ZoneField


class PreferenceForm(forms.ModelForm):
    time_zone = ZoneField(propose=True)

    class Meta:
        model = NotificationPreference
        fields = [
            "your_turn_email",
            "reminders",
            "first_reminder_hours",
            "reminder_every_hours",
            "daily_digest",
            "digest_hour",
            "time_zone",
            "quiet_start",
            "quiet_end",
        ]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "first_reminder_hours": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "reminder_every_hours": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "digest_hour": forms.NumberInput(attrs={"inputmode": "numeric"}),
        }
        help_texts = {
            "daily_digest": gettext_lazy(
                "One e-mail a day listing every game where it is your turn, instead of the turn e-mails "
                "and reminders. Warnings that your time is running out, or ran out, still come."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # How "your turn" e-mails respect players (handsite.notifications: held while present, one
        # unread e-mail per game, several games in one e-mail).
        minutes = settings.HANDSITE_NOTIFY_GRACE_MINUTES
        self.fields["your_turn_email"].help_text = ngettext(
            "None while you have the game open: the turn shows on the page. If you leave and it is "
            "still your turn, one e-mail goes %(minutes)s minute later, and no other for that game "
            "until you open it. Several games waiting make one e-mail.",
            "None while you have the game open: the turn shows on the page. If you leave and it is "
            "still your turn, one e-mail goes %(minutes)s minutes later, and no other for that game "
            "until you open it. Several games waiting make one e-mail.",
            minutes,
        ) % {"minutes": minutes}

    def clean(self):
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("Give both ends of the quiet hours, or neither."))
        return data


class VacationForm(forms.Form):
    days = forms.IntegerField(label=gettext_lazy("Days of vacation"), min_value=1, max_value=366)


@login_required
def notification_list(request):
    if request.method == "POST":
        outbox.mark_read(request.user)
        return redirect("notification_list")
    rows = notifications.notifications_of(request.user)
    items = [
        {"notification": n, "text": text}
        for n, text in zip(rows, notifications.describe_all(rows), strict=True)
    ]
    return render(request, "handsite/notifications.html", {"items": items})


@login_required
def notification_open(request, notification_id: int):
    """Mark one notification read and go to its game (GET keeps links working without JavaScript)."""
    notification = get_object_or_404(Notification, pk=notification_id, user=request.user)
    outbox.mark_read(request.user, notification.pk)
    return redirect(notifications.open_link(notification))


@login_required
def notification_settings(request):
    pref = preferences.preference_for(request.user)
    now = timezone.now()
    form = PreferenceForm(instance=pref)
    vacation_form = VacationForm()
    if request.method == "POST":
        action = request.POST.get("do", "save")
        if action == "save":
            form = PreferenceForm(request.POST, instance=pref)
            if form.is_valid():
                pref = preferences.save_preferences(form)
                request.reader_time_zone = pref.time_zone  # the middleware sets the zone's cookie
                messages.success(request, _("Your notification settings are saved."))
                return redirect("notification_settings")
        elif action == "vacation":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                try:
                    preferences.book_vacation(request.user, vacation_form.cleaned_data["days"], now)
                except notification_prefs.PreferenceError as error:
                    vacation_form.add_error("days", error.message)
                else:
                    messages.success(request, _("Enjoy your vacation. Your deadlines are paused."))
                    return redirect("notification_settings")
        elif action == "back":
            preferences.cancel_vacation(request.user, now)
            messages.success(request, _("Welcome back. Your deadlines run again."))
            return redirect("notification_settings")
    pref.refresh_from_db()
    context = {
        "form": form,
        "vacation_form": vacation_form,
        "pref": pref,
        "on_vacation": pref.on_vacation(now),
        "days_left": notification_prefs.days_left(pref, now),
        "allowance": notification_prefs.vacation_allowance(),
    }
    return render(request, "handsite/notifications_settings.html", context)


@login_required
@require_POST
def set_time_zone(request):
    """One tap: show times in the zone the browser proposed (site.js, Intl API)."""
    name = request.POST.get("time_zone", "")[:64]
    if name in notification_prefs.time_zone_names():
        preferences.set_time_zone(request.user, name)
        request.reader_time_zone = name  # the middleware sets the zone's cookie
        label = timefmt.zone_label(notification_prefs.zone_named(name))
        messages.success(request, _("Times are now shown in %(zone)s time.") % {"zone": label})
    else:
        messages.error(request, _("That is not a time zone. Choose one in your reminder settings."))
    target = request.POST.get("next", "")
    # A path of this site only: redirect() would read anything else as a view name to reverse.
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ):
        target = reverse("home")
    return HttpResponseRedirect(target)


class EmailChoiceForm(forms.Form):
    """The unsubscribe page's per-kind choices."""

    your_turn_email = forms.BooleanField(required=False, label=gettext_lazy("E-mail me when it is my turn"))
    reminders = forms.BooleanField(
        required=False, label=gettext_lazy("Reminders, and warnings that my time is running out or ran out")
    )
    daily_digest = forms.BooleanField(
        required=False, label=gettext_lazy("One daily digest instead of the turn e-mails and reminders")
    )


ONE_CLICK = "One-Click"
"""RFC 8058: a mail client's one-click unsubscribe posts ``List-Unsubscribe=One-Click``."""


@csrf_exempt  # one-click unsubscribe (RFC 8058) posts from the mail client; the signed token is the proof
def unsubscribe(request, token: str):
    """Says exactly what unsubscribing stops and offers the per-kind choices; a POST of the mail
    client's one-click (or the page's "stop all") turns every e-mail about games off."""
    user_id = notifications.user_id_from_token(token)
    if user_id is None:
        raise Http404(_("This unsubscribe link is not valid."))
    pref = notification_prefs.preference_of(user_id)
    form = EmailChoiceForm(
        initial={name: getattr(pref, name) for name in ("your_turn_email", "reminders", "daily_digest")}
    )
    done = None
    if request.method == "POST":
        if request.POST.get("do") == "choose" and request.POST.get("List-Unsubscribe") != ONE_CLICK:
            form = EmailChoiceForm(request.POST)
            if form.is_valid():
                pref = preferences.set_email_choices(user_id, **form.cleaned_data)
                done = "all" if pref.emails_off else "chosen"
        else:  # the mail client's one-click (whatever its body's encoding) or the page's "stop all"
            preferences.unsubscribe(user_id)
            done = "all"
    context = {"done": done, "token": token, "form": form}
    return render(request, "handsite/notifications_unsubscribe.html", context)
