"""Table talk in the in-site notification list (handsite's page, games' describer): one line per
message, naming who wrote and where, never the words; opening it leads to the game."""

import pytest
from django.urls import reverse

from games.chat import ChatRequest
from games.services import talk
from handsite.models import Notification

pytestmark = pytest.mark.django_db


def test_the_list_names_who_wrote_in_which_game_without_the_words(client, make_game, owner, member):
    game = make_game()
    psst = ChatRequest(action="post", text="psst")
    talk.chat(game_id=game.pk, group_slug=game.group.slug, user=owner, request=psst)
    client.force_login(member)
    html = client.get(reverse("notification_list")).content.decode()
    assert f"Olivia Owner wrote in the table talk of Thursday Hand: {game}." in html
    assert "psst" not in html
    row = Notification.objects.get(user=member, kind="chat")
    response = client.get(reverse("notification_open", args=[row.pk]))
    assert response.status_code == 302
    assert response.headers["Location"] == game.get_absolute_url()
