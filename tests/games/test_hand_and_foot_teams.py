"""Hand and Foot's team rules use the partnership choice of game creation (as Partnership Hand does): the
creator seats the partners opposite or lets the site draw them, the waiting page shows the teams, and the
play page, the scores, the final result and the group's record read team against team."""

import re

import pytest
from django.urls import reverse

from games import results
from games.models import Game, GameStatus
from games.services import core as game_core
from games.services import leaving, seating
from scoring.models import OnlineResult

NEW = reverse("games:new", args=["thursday-hand"])


def post(client, **fields):
    data = {"variant": "hand-and-foot-teams", "move_hours": "0", "timeout_rule": "nothing", **fields}
    return client.post(NEW, data)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def players_of(game) -> list:
    return [seat.user or "bot" for seat in game.seats.order_by("number")]


def test_the_team_rules_offer_the_partners_choice_but_not_each_for_themselves(client, owner):
    client.force_login(owner)
    html = client.get(NEW, {"variant": "hand-and-foot-teams"}).content.decode()
    assert 'name="partners" value="chosen"' in html
    assert "Let the site draw the partners" in html
    assert 'name="partnership"' not in html  # the team rules are always played in teams
    assert "Team 1 (seats 1 and 3, opposite each other)" in html


def test_the_creator_seats_the_partners_opposite(client, owner, admin, member):
    client.force_login(owner)
    response = post(
        client,
        partners="chosen",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.variant == "hand-and-foot-teams"
    assert game.random_order is False
    assert players_of(game) == [owner, admin, member, "bot"]


def test_the_site_can_draw_the_partners_of_the_team_rules(client, owner, admin, member):
    client.force_login(owner)
    post(
        client,
        partners="drawn",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
    )
    game = Game.objects.get()
    assert game.random_order is True
    assert sorted(map(str, players_of(game))) == sorted(map(str, [owner, admin, member, "bot"]))


def test_the_team_rules_need_all_four_seats_and_change_nothing_otherwise(client, owner, member):
    client.force_login(owner)
    response = post(client, partners="chosen", seat_0=str(owner.pk), seat_1="bot", seat_2=str(member.pk))
    assert response.status_code == 200
    assert "A partnership needs four players: fill seats 1 to 4." in response.content.decode()
    assert not Game.objects.exists()


def test_the_waiting_page_shows_the_two_teams(client, owner, admin, member):
    client.force_login(owner)
    post(
        client,
        partners="chosen",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
    )
    game = Game.objects.get()
    text = text_of(client.get(game.get_absolute_url()).content.decode())
    assert "Team 1: Olivia Owner and Mona Member" in text
    assert "Team 2: Adam Admin and Bot 4" in text


def test_the_play_page_reads_team_against_team(client, owner, member, start_game):
    game = start_game([owner, "bot", member, "bot"], variant="hand-and-foot-teams", seed=7)
    seating.accept_seat(game_id=game.pk, user=member)
    client.force_login(owner)
    html = client.get(Game.objects.get(pk=game.pk).get_absolute_url()).content.decode()
    seat_list = html[html.index('id="seat-list"') : html.index('id="centre"')]
    assert text_of(seat_list).count("team 1") == 2
    assert text_of(seat_list).count("team 2") == 2
    side = html[html.index('id="side-0"') : html.index('id="side-1"')]
    assert "team 1" in text_of(side)
    assert "Olivia Owner &amp; Mona Member" in side


def _finished_team_game(owner, start_game, seed=3):
    game = start_game([owner, "bot", "bot", "bot"], variant="hand-and-foot-teams", seed=seed)
    leaving.hand_seat_to_bot(game_id=game.pk, number=0)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    return game


@pytest.mark.parametrize("seed", [3, 2])  # the last deal: the draw pile ran out (3), a player went out (2)
def test_the_scores_and_the_final_result_read_team_against_team(client, owner, start_game, seed):
    game = _finished_team_game(owner, start_game, seed)
    state = game_core.load_state(game)
    client.force_login(owner)
    html = client.get(game.get_absolute_url()).content.decode()
    names = {seat.number: seat.name for seat in game_core.seats_of(game)}
    teams = [f"{names[0]} &amp; {names[2]}", f"{names[1]} &amp; {names[3]}"]
    scores = html[html.index('id="scores"') :]
    head = scores[scores.index("<thead>") : scores.index("</thead>")]
    assert re.findall(r"<th>([^<]*)</th>", head)[1:] == teams  # one column per team
    totals = state.status().totals
    foot = scores[scores.index("<tfoot>") : scores.index("</tfoot>")]
    assert re.findall(r"<bdi>(-?\d+)</bdi>", foot) == [str(t) for t in totals]
    standings = html[html.index('class="standings"') :]
    standings = standings[: standings.index("</ol>")]
    assert standings.count("<li") == 2
    winner = 0 if totals[0] >= totals[1] else 1
    assert standings.index(teams[winner]) < standings.index(teams[1 - winner])
    last = html[html.index('id="last-deal"') : html.index('id="scores"')]
    assert last.count('<span class="member-name">') == 2  # a line per team
    assert last.count('class="team-hand"') == 4  # each player's cards under their team
    assert "None" not in text_of(last)
    if seed == 3:
        assert state.last_deal["winner"] is None
        assert "The draw pile has run out: the deal ends with nobody going out." in text_of(last)
    else:
        assert state.last_deal["winner"] is not None
        assert "—" in last  # the player who went out holds nothing


def test_the_group_record_of_the_team_rules_is_per_team(owner, start_game):
    game = _finished_team_game(owner, start_game)
    assert results.record_result(game.pk)
    result = OnlineResult.objects.get(game_id=game.pk)
    assert result.sides == [[0, 2], [1, 3]]
    assert len(result.totals) == 2
    assert not result.lower_is_better
    best = max(result.totals)
    assert result.winner_seats == sorted(
        seat
        for side, total in zip(result.sides, result.totals, strict=True)
        if total == best
        for seat in side
    )


def test_a_partnership_hand_reads_team_against_team_too(client, owner, start_game):
    game = start_game([owner, "bot", "bot", "bot"], variant="classic", options={"teams": True}, seed=3)
    leaving.hand_seat_to_bot(game_id=game.pk, number=0)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    client.force_login(owner)
    html = client.get(game.get_absolute_url()).content.decode()
    names = {seat.number: seat.name for seat in game_core.seats_of(game)}
    head = html[html.index('id="scores"') :]
    head = head[head.index("<thead>") : head.index("</thead>")]
    assert re.findall(r"<th>([^<]*)</th>", head)[1:] == [
        f"{names[0]} &amp; {names[2]}",
        f"{names[1]} &amp; {names[3]}",
    ]
    standings = html[html.index('class="standings"') :]
    standings = standings[: standings.index("</ol>")]
    assert standings.count("<li") == 2


def test_the_rule_state_of_the_team_rules_speaks_of_the_team(client, owner, member, start_game):
    game = start_game([owner, "bot", member, "bot"], variant="hand-and-foot-teams", seed=7)
    seating.accept_seat(game_id=game.pk, user=member)
    client.force_login(member)
    html = client.get(Game.objects.get(pk=game.pk).get_absolute_url()).content.decode()
    block = re.search(r'<div class="rule-state" id="rule-state">(.*?)</div>', html, re.S)
    assert block
    text = text_of(block.group(1))
    assert "Deal 1 of 3: an opening needs 50. Your team has not opened yet." in text
    assert "To go out your team needs a red book and a black book." in text
    assert "Your team has not opened: you cannot take the pile yet." in text
    # the viewer's own side says it once, in the rule state
    assert text_of(html).count("To go out your team needs a red book and a black book.") == 1


def test_the_seats_of_a_partnership_hand_are_tagged_with_their_team(client, owner, member, start_game):
    game = start_game([owner, "bot", member, "bot"], variant="classic", options={"teams": True}, seed=7)
    seating.accept_seat(game_id=game.pk, user=member)
    client.force_login(owner)
    html = client.get(Game.objects.get(pk=game.pk).get_absolute_url()).content.decode()
    seat_list = html[html.index('id="seat-list"') : html.index('id="centre"')]
    tags = re.findall(r'class="tag tag-team tag-team-(\d)">([^<]+)<', seat_list)
    assert tags == [("1", "team 1"), ("2", "team 2"), ("1", "team 1"), ("2", "team 2")]
    solo = start_game([owner, member], seed=7)
    seating.accept_seat(game_id=solo.pk, user=member)
    assert "tag-team" not in client.get(Game.objects.get(pk=solo.pk).get_absolute_url()).content.decode()
