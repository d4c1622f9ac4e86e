""" "Play again with the same players" (a POST from the finished game's table): one service call
(games.services.rematch), then the new game's page (HX-Redirect for htmx, a redirect otherwise); a refusal
comes back to the finished game with its message."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from games.services import rematch
from games.services.core import GameError, GameNotFound
from games.views import _only


@_only("POST")
def game_rematch(request, group_slug, game_id):
    try:
        game = rematch.rematch(game_id=game_id, user=request.user, group_slug=group_slug)
    except GameNotFound:
        raise Http404 from None
    except GameError as error:
        messages.error(request, error.message)
        url = reverse("games:play", args=[group_slug, game_id])
    else:
        url = game.get_absolute_url()
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)
