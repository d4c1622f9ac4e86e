"""The whole game's log jumps to a deal in one tap: a link per deal to the page that shows its newest
moves under the deal's heading (one query for the links)."""

import re

from django.urls import reverse

from games import engine, movelog
from games.models import Move
from games.services import playing, seating


def _play_deals(game, owner, deals):
    """The owner's moves (the bot's choices) against the bot until ``deals`` deals are over."""
    for _ in range(5000):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished or len(state.records) >= deals:
            return
        playing.play(game_id=game.pk, user=owner, version=game.version, action=engine.bot_action(state, 0))
    raise AssertionError("the deals never ended")


def test_each_deal_link_opens_the_page_with_that_deals_newest_moves_under_its_heading(
    client, owner, start_game, monkeypatch
):
    monkeypatch.setattr(movelog, "PAGE_SIZE", 10)  # several pages per deal
    game = start_game([owner, seating.BOT], seed=31)
    _play_deals(game, owner, 3)
    client.force_login(owner)
    log_url = reverse("games:log", args=[game.group.slug, game.pk])
    links = movelog.deal_links(game)
    assert [link["number"] for link in links] == sorted(
        {d + 1 for d in Move.objects.filter(game=game).values_list("deal", flat=True)}
    )
    assert len(links) >= 3
    first_page = client.get(log_url).content.decode()
    for link in links:
        assert f'href="?page={link["page"]}#deal-{link["number"]}"' in first_page
        html = client.get(log_url, {"page": link["page"]}).content.decode()
        newest = Move.objects.filter(game=game, deal=link["number"] - 1).order_by("-seq").first().seq
        heading = html.index(f'id="deal-{link["number"]}"')
        assert f'<li value="{newest}">' in html[heading:]
        before = re.findall(r'id="deal-(\d+)"', html[:heading])
        assert all(int(n) > link["number"] for n in before)  # newer deals only above it


def test_a_game_of_one_deal_has_no_deal_links(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=31)
    client.force_login(owner)
    html = client.get(reverse("games:log", args=[game.group.slug, game.pk])).content.decode()
    assert "deal-jump" not in html
