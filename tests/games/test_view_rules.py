"""The rules pages: /rules/<slug>/ for each rule set, public, numbers from the engine's data, and a
game's option values for members of its group only."""

import re

import pytest
from django.urls import reverse

from games import engine
from games.engine.scoring import KUWAITI_TABLE, STANDARD_TABLE
from games.services.seating import BOT

ALL_RULE_SETS = list(engine.VARIANTS)


def text_of(response) -> str:
    """The page's text without tags, with whitespace collapsed."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_there_are_seven_rule_sets_to_read():
    assert ALL_RULE_SETS == [
        "classic",
        "jordanian",
        "saudi",
        "kuwaiti",
        "egyptian",
        "hand-and-foot",
        "hand-and-foot-teams",
    ]


@pytest.mark.parametrize("slug", ALL_RULE_SETS)
def test_the_rules_page_of_each_rule_set_opens_without_logging_in(client, slug):
    response = client.get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    text = text_of(response)
    variant = engine.VARIANTS[slug]
    assert f"Rules of {variant.name}" in text
    for heading in ("The cards", "The deal", "Wild cards", "A turn", "Going out", "Scoring"):
        assert heading in text, heading
    assert "Options and their defaults" in text
    for option in variant.options:
        assert option.label in text
        assert option.help in text
    # every other rule set is one link away
    for other in ALL_RULE_SETS:
        if other != slug:
            assert f'href="{reverse("games:rules", args=[other])}"' in response.content.decode()


@pytest.mark.parametrize("slug", ALL_RULE_SETS)
def test_the_deck_table_follows_the_engine(client, slug):
    variant = engine.VARIANTS[slug]
    html = client.get(reverse("games:rules", args=[slug])).content.decode()
    for players in (variant.min_players, variant.max_players):
        decks = variant.decks_for(players)
        cards = len(engine.deck_for(slug, players)) if slug in engine.HAND_VARIANTS else 54 * decks
        assert f"<td>{decks}</td><td>{cards}</td>" in html, (players, decks, cards)


def test_kuwaiti_shows_every_named_hand_with_its_scores_and_the_announcement_rule(client):
    text = text_of(client.get(reverse("games:rules", args=["kuwaiti"])))
    for row in KUWAITI_TABLE.values():
        assert row.label in text
        assert f"{row.winner:+d}" in text
    turns = engine.HAND_VARIANTS["kuwaiti"].announcement_min_turns
    assert f"allowed only once every player has had {turns} turns" in text
    assert f"everybody else from their turn {turns + 1}" in text
    assert "(a wild card 20)" in text
    assert "one deck" not in text  # the deck table says it, in numbers: 1 deck (54) for 2-3 players


def test_jordanian_explains_the_indicator_and_the_wild_aces(client):
    text = text_of(client.get(reverse("games:rules", args=["jordanian"])))
    assert "the indicator" in text
    assert "the two aces of its suit are the wild cards of this deal" in text
    assert "11, even inside a low run" in text
    assert "Redeal (option)" in text


def test_classic_has_no_indicator_and_scores_the_standard_table(client):
    text = text_of(client.get(reverse("games:rules", args=["classic"])))
    assert "indicator" not in text
    assert "The two jokers are the wild cards." in text
    for row in STANDARD_TABLE.values():
        assert row.label in text
        assert f"{row.winner:+d}" in text
    assert "Partnership Hand" in text


def test_saudi_explains_the_rising_opening(client):
    text = text_of(client.get(reverse("games:rules", args=["saudi"])))
    assert "the total of the most recent opening plus 1" in text


def test_egyptian_lists_the_special_hands_but_not_the_announcement(client):
    text = text_of(client.get(reverse("games:rules", args=["egyptian"])))
    assert "Special hands" in text
    assert KUWAITI_TABLE["double_joker_suited"].label in text
    assert "Announcement" not in text


def test_hand_and_foot_lists_card_points_and_opening_minimums_from_the_engine(client):
    variant = engine.VARIANTS["hand-and-foot"]
    html = client.get(reverse("games:rules", args=["hand-and-foot"])).content.decode()
    for number, minimum in enumerate(variant.opening_minimums, start=1):
        assert f"<td>{number}</td><td>{minimum}</td>" in html
    assert '<th scope="row"><bdi dir="ltr">joker</bdi></th><td>50</td>' in html
    assert "Draw 2 cards from the draw pile" in text_of_html(html)


def test_hand_and_foot_teams_offers_the_fourth_deal_and_draws_one(client):
    html = client.get(reverse("games:rules", args=["hand-and-foot-teams"])).content.decode()
    text = text_of_html(html)
    assert "Draw 1 card from the draw pile" in text
    assert "4 (option)" in text
    assert "150" in text
    assert "One meld per rank per team" in text


def text_of_html(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_an_unknown_rule_set_is_404(client):
    assert client.get("/rules/poker/").status_code == 404


def test_a_member_sees_the_option_values_of_a_game_of_their_group(client, owner, member, start_game):
    game = start_game(
        [owner, member, BOT], variant="kuwaiti", options={"deals": 9, "reshuffle_discards": True}
    )
    client.force_login(member)
    response = client.get(reverse("games:rules", args=["kuwaiti"]), {"game": game.pk})
    text = text_of(response)
    assert f"This game's options (game #{game.pk})" in text
    assert "Number of deals 9 (usually 7)" in text
    assert game.get_absolute_url() in response.content.decode()


def test_an_outsider_learns_nothing_of_a_game_on_the_rules_page(client, owner, member, outsider, start_game):
    game = start_game([owner, member], variant="classic", options={"max_wild_per_meld": 2})
    url = reverse("games:rules", args=["classic"])
    client.force_login(outsider)
    with_game = client.get(url, {"game": game.pk})
    nowhere = client.get(url, {"game": game.pk + 1000})
    assert with_game.status_code == nowhere.status_code == 200
    assert text_of(with_game) == text_of(nowhere) == text_of(client.get(url))
    assert "This game's options" not in text_of(with_game)
    assert game.get_absolute_url() not in with_game.content.decode()
    client.logout()
    assert "This game's options" not in text_of(client.get(url, {"game": game.pk}))


def test_a_game_of_another_rule_set_or_a_bad_id_is_ignored(client, owner, member, start_game):
    game = start_game([owner, member], variant="classic")
    client.force_login(owner)
    for value in (str(game.pk), "abc", "-1", "9" * 40):
        response = client.get(reverse("games:rules", args=["saudi"]), {"game": value})
        assert response.status_code == 200
        assert "This game's options" not in text_of(response)
