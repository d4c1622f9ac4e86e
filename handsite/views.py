"""Thin function views: read input, call handsite.services, render. HTMX requests get the matching
partial of the page template; every action also works as a plain form post."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from handsite import sections, services
from handsite.access import group_view
from handsite.adapters import PENDING_INVITATION_SESSION_KEY
from handsite.forms import GroupForm, InviteEmailForm, InviteLinkForm, ProfileForm, RoleForm
from handsite.models import Membership, Role


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
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.create_group(owner=request.user, **form.cleaned_data)
        except services.GroupError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Your group is ready. Invite your friends with the link below."))
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
        services.update_group(actor_membership=membership, **form.cleaned_data)
        messages.success(request, _("Saved."))
        return redirect(group)
    return render(request, "handsite/group_form.html", {"form": form, "group": group})


def _respond(request, group, membership, partial, error=None):
    """HTMX: the page's partial (with the error inline). Otherwise: back to the group page."""
    if request.htmx:
        context = _group_context(request, group, membership, error=error)
        return render(request, f"handsite/group_detail.html#{partial}", context)
    if error:
        messages.error(request, error)
    return redirect(group)


@group_view(manage=True)
@require_POST
def invite_link(request, group, membership):
    form = InviteLinkForm(request.POST)
    if not form.is_valid():
        return _respond(request, group, membership, "invite", error=_("Choose a valid action and expiry."))
    if form.cleaned_data["action"] == "revoke":
        services.revoke_invite_link(actor_membership=membership)
        if not request.htmx:
            messages.success(request, _("The invite link is switched off."))
    else:
        days = form.cleaned_data["expires_in_days"]
        services.regenerate_invite_link(
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
        invitation = services.invite_by_email(actor_membership=membership, email=form.cleaned_data["email"])
    except services.GroupError as error:
        return _respond(request, group, membership, "invite", error=error.message)
    messages.success(request, _("Invitation sent to %(email)s.") % {"email": invitation.email})
    if request.htmx:
        return _respond(request, group, membership, "invite")
    return redirect(group)


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
            services.change_role(
                actor_membership=membership, membership=target, role=form.cleaned_data["role"]
            )
        except services.GroupError as exc:
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
        services.remove_member(actor_membership=membership, membership=target)
    except services.GroupError as exc:
        error = exc.message
    if error is None and not request.htmx:
        messages.success(request, _("%(name)s was removed from the group.") % {"name": target.user.name})
    return _respond(request, group, membership, "members", error=error)


@group_view
@require_http_methods(["GET", "POST"])
def group_leave(request, group, membership):
    if request.method == "POST":
        try:
            services.leave_group(membership=membership)
        except services.GroupError as error:
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
        invitation = services.check_invitation(token, request.user if request.user.is_authenticated else None)
    except services.InvitationError as error:
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
            services.accept_invitation(token=token, user=request.user)
        except services.InvitationError as error:
            return render(request, "handsite/invitation_invalid.html", {"error": error.message}, status=404)
        messages.success(request, _("Welcome to %(group)s!") % {"group": group.name})
        return redirect(group)
    return render(request, "handsite/invitation.html", {"invitation": invitation, "group": group})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = services.update_profile(request.user, **form.cleaned_data)
        with translation.override(user.language):  # the next page is in the language just chosen
            messages.success(request, _("Saved."))
        response = redirect("profile")
        # Pages seen after logging out keep it too.
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response
    return render(request, "handsite/profile.html", {"form": form})
