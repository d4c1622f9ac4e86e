"""The one-click answers of a game invitation e-mail: ``/invitations/<token>/accept/`` and
``/decline/``. The signed token names the game, the seat, the person and the invitation
(games.services.invitation_links); the link needs the invited person's own session (a link checker
or someone else following it changes nothing), and games.services.invitations.answer_invitation says
what it did, success and refusal alike: an acceptance goes to the game, anything else gets a page
saying why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from games.services import invitations


@require_GET
def invitation_answer(request, token: str, answer: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    result = invitations.answer_invitation(token=token, user=request.user, answer=answer)
    if result.outcome in ("accepted", "already_accepted"):
        messages.success(request, result.message)
        return redirect(result.game)
    return render(
        request, "games/invitation.html", {"result": result, "game": result.game}, status=result.status
    )
