"""Thin function views: read input, call handsite.services, render. HTMX requests get the matching
partial of the page template; every action also works as a plain form post."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseServerError
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from handsite import devmail, health, sections
from handsite.access import group_view
from handsite.adapters import PENDING_INVITATION_SESSION_KEY
from handsite.forms import GroupForm, InviteEmailForm, InviteLinkForm, NewGroupForm, ProfileForm, RoleForm
from handsite.i18n import language_from_cookie
from handsite.models import Membership, Role
from handsite.services import accounts, groups, invitations


def home(request):
    if not request.user.is_authenticated:
        return render(request, "handsite/welcome.html")
    memberships = (
        Membership.objects.filter(user=request.user).select_related("group").order_by("group__name", "pk")
    )
    context = {"memberships": memberships, "sections": sections.home_sections(request)}
    return render(request, "handsite/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def group_create(request):
    form = NewGroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = groups.create_group(owner=request.user, **form.cleaned_data)
        except groups.GroupError as error:
            form.add_error(None, error.message)
        else:
            if form.cleaned_data["invite_link"]:
                messages.success(request, _("Your group is ready. Invite your friends with the link below."))
            else:
                messages.success(
                    request, _("Your group is ready. Make an invite link below or invite friends by e-mail.")
                )
            return redirect(group)
    return render(request, "handsite/group_form.html", {"form": form})


def _group_context(request, group, membership, **extra):
    memberships = group.memberships.select_related("user").order_by("joined_at", "pk")
    context = {
        "group": group,
        "membership": membership,
        "memberships": memberships,
        "roles": Role.choices,
        "invite_link_form": InviteLinkForm(),
        "invite_email_form": InviteEmailForm(),
    }
    if membership.can_manage:
        link = group.active_link_invitation()
        context["invite_link"] = link
        context["invite_url"] = request.build_absolute_uri(link.get_absolute_url()) if link else None
        context["pending_invitations"] = invitations.pending_email_invitations(group)
    context |= extra
    return context


@group_view
def group_detail(request, group, membership):
    context = _group_context(
        request, group, membership, sections=sections.group_sections(request, group, membership)
    )
    return render(request, "handsite/group_detail.html", context)


@group_view(manage=True)
@require_http_methods(["GET", "POST"])
def group_edit(request, group, membership):
    form = GroupForm(request.POST or None, instance=group)
    if request.method == "POST" and form.is_valid():
        groups.update_group(actor_membership=membership, **form.cleaned_data)
        messages.success(request, _("Saved."))
        return redirect(group)
    return render(request, "handsite/group_form.html", {"form": form, "group": group})


def _respond(request, group, membership, partial, error=None, done=None):
    """HTMX: the page's partial (with the error or what was done inline). Otherwise: back to the group
    page, saying it there."""
    if request.htmx:
        context = _group_context(request, group, membership, error=error, done=done)
        return render(request, f"handsite/group_detail.html#{partial}", context)
    if error:
        messages.error(request, error)
    if done:
        messages.success(request, done)
    return redirect(group)


@group_view(manage=True)
@require_POST
def invite_link(request, group, membership):
    form = InviteLinkForm(request.POST)
    if not form.is_valid():
        return _respond(request, group, membership, "invite", error=_("Choose a valid action and expiry."))
    if form.cleaned_data["action"] == "revoke":
        invitations.revoke_invite_link(actor_membership=membership)
        if not request.htmx:
            messages.success(request, _("The invite link is switched off."))
    else:
        days = form.cleaned_data["expires_in_days"]
        invitations.regenerate_invite_link(
            actor_membership=membership, expires_in=datetime.timedelta(days=days) if days else None
        )
        if not request.htmx:
            messages.success(request, _("A new invite link is ready; the old one no longer works."))
    return _respond(request, group, membership, "invite")


@group_view(manage=True)
@require_POST
def invite_email(request, group, membership):
    form = InviteEmailForm(request.POST)
    if not form.is_valid():
        return _respond(request, group, membership, "invite", error=_("Enter a valid e-mail address."))
    try:
        invitation = invitations.invite_by_email(
            actor_membership=membership, email=form.cleaned_data["email"]
        )
    except groups.GroupError as error:
        return _respond(request, group, membership, "invite", error=error.message)
    done = _("Invitation sent to %(email)s.") % {"email": invitation.email}
    return _respond(request, group, membership, "invite", done=done)


@group_view(manage=True)
@require_POST
def invitation_take_back(request, group, membership, invitation_id):
    invitation = invitations.take_back_email_invitation(
        actor_membership=membership, invitation_id=invitation_id
    )
    if invitation is None:
        return _respond(
            request, group, membership, "invite", error=_("That invitation is no longer pending.")
        )
    done = _("The invitation to %(email)s is taken back.") % {"email": invitation.email}
    return _respond(request, group, membership, "invite", done=done)


@group_view(manage=True)
@require_POST
def member_role(request, group, membership, membership_id):
    target = get_object_or_404(Membership, pk=membership_id, group=group)
    form = RoleForm(request.POST)
    error = None
    if not form.is_valid():
        error = _("Choose a role from the list.")
    else:
        try:
            groups.change_role(actor_membership=membership, membership=target, role=form.cleaned_data["role"])
        except groups.GroupError as exc:
            error = exc.message
    if error is None and not request.htmx:
        messages.success(request, _("Role changed."))
    membership.refresh_from_db()
    return _respond(request, group, membership, "members", error=error)


@group_view(manage=True)
@require_POST
def member_remove(request, group, membership, membership_id):
    target = get_object_or_404(Membership.objects.select_related("user"), pk=membership_id, group=group)
    error = None
    try:
        groups.remove_member(actor_membership=membership, membership=target)
    except groups.GroupError as exc:
        error = exc.message
    if error is None and not request.htmx:
        messages.success(request, _("%(name)s was removed from the group.") % {"name": target.user.name})
    return _respond(request, group, membership, "members", error=error)


@group_view
@require_http_methods(["GET", "POST"])
def group_leave(request, group, membership):
    if request.method == "POST":
        try:
            groups.leave_group(membership=membership)
        except groups.GroupError as error:
            messages.error(request, error.message)
            return redirect(group)
        messages.success(request, _("You left %(group)s.") % {"group": group.name})
        return redirect("home")
    return render(request, "handsite/group_leave.html", {"group": group, "membership": membership})


@require_http_methods(["GET", "POST"])
def invitation(request, token):
    """Where an invite link leads. Logged out: remember the token and offer sign-up / log-in (the
    account adapter joins the group right after). Logged in: a button to join."""
    try:
        invitation = invitations.check_invitation(
            token, request.user if request.user.is_authenticated else None
        )
    except invitations.InvitationError as error:
        return render(request, "handsite/invitation_invalid.html", {"error": error.message}, status=404)
    group = invitation.group
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('account_login')}?next={request.path}")
        request.session[PENDING_INVITATION_SESSION_KEY] = token
        return render(request, "handsite/invitation.html", {"invitation": invitation, "group": group})
    if group.memberships.filter(user=request.user).exists():
        if request.method == "POST":
            messages.info(request, _("You are already in %(group)s.") % {"group": group.name})
        return redirect(group)
    if request.method == "POST":
        try:
            invitations.accept_invitation(token=token, user=request.user)
        except invitations.InvitationError as error:
            return render(request, "handsite/invitation_invalid.html", {"error": error.message}, status=404)
        messages.success(request, _("Welcome to %(group)s!") % {"group": group.name})
        return redirect(group)
    return render(request, "handsite/invitation.html", {"invitation": invitation, "group": group})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = accounts.update_profile(request.user, **form.cleaned_data)
        with translation.override(user.language):  # the next page is in the language just chosen
            messages.success(request, _("Saved."))
        response = redirect("profile")
        # Pages seen after logging out keep it too.
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response
    return render(request, "handsite/profile.html", {"form": form})


# --- For when things go wrong ---------------------------------------------------------------------


@csrf_exempt
@never_cache
@language_from_cookie  # reads neither the session nor the user
@require_http_methods(["GET", "HEAD"])
def healthz(request):
    """For load balancers and monitors: 200 "ok" when the database answers and the Celery broker is
    reachable, else 503 naming each part that failed ("database: OperationalError"). Reads no session
    and sets no cookie; exempt from the HTTPS redirect (SECURE_REDIRECT_EXEMPT)."""
    problems = health.problems()
    lines = [f"{part}: {problems.get(part, 'ok')}" for part in health.PARTS]
    status = 503 if problems else 200
    return HttpResponse(
        "\n".join(["failed" if problems else "ok", *lines, ""]),
        status=status,
        content_type="text/plain; charset=utf-8",
    )


def _error_page(request, template: str, status: int, **context):
    return render(request, template, {"referer": _same_site_referer(request), **context}, status=status)


def _same_site_referer(request) -> str:
    """The page the person came from, when it was one of the site's (a way back), else ""."""
    referer = request.META.get("HTTP_REFERER", "")
    try:
        origin = f"{request.scheme}://{request.get_host()}/"
    except Exception:  # a refused Host header (the 400 page itself)
        return ""
    return referer if referer.startswith(origin) and len(referer) < 2000 else ""


def bad_request(request, exception=None):
    return _error_page(request, "400.html", 400)


def permission_denied(request, exception=None):
    return _error_page(request, "403.html", 403)


def page_not_found(request, exception=None):
    return _error_page(request, "404.html", 404)


def csrf_failure(request, reason=""):
    """A form sent without its security token (an old tab, cookies off): say how to go on."""
    return _error_page(request, "403_csrf.html", 403, no_cookie=reason == REASON_NO_CSRF_COOKIE)


def server_error(request):
    """The 500 page in the site's layout; when that cannot be drawn (the database is what failed and the
    header asks it who is logged in) the same page without the person's menu, and at worst a line of
    text. Never raises."""
    try:
        return render(request, "500.html", {"referer": ""}, status=500)
    except Exception:
        pass
    try:
        return HttpResponseServerError(render_to_string("500.html", {"referer": ""}))
    except Exception:
        return HttpResponseServerError(
            _("Something went wrong on our side. Please try again in a minute."),
            content_type="text/plain; charset=utf-8",
        )


def _may_read_dev_mail(request) -> bool:
    """The development mail page: only with DEBUG, and only for staff or a browser on this machine."""
    local = request.META.get("REMOTE_ADDR") in ("127.0.0.1", "::1")
    return settings.DEBUG and (local or request.user.is_staff)


@require_http_methods(["GET"])
def dev_mail(request, name: str = ""):
    """Development only: the e-mails written to var/mail/, newest first, one shown decoded with its
    links whole. 404 in production."""
    if not _may_read_dev_mail(request):
        raise Http404
    folder = Path(settings.MAILERS["default"].get("OPTIONS", {}).get("file_path", settings.VAR_DIR / "mail"))
    listed = [devmail.read(folder, entry, body=False) for entry in devmail.names(folder)]
    shown = devmail.read(folder, name or (listed[0].name if listed else ""))
    if name and shown is None:
        raise Http404
    return render(request, "handsite/dev_mail.html", {"mails": listed, "shown": shown, "folder": folder})
