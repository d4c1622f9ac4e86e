"""A player's statistics on a hand-built history where every figure is worked out by hand below.

Three classic sheets (Olivia the owner = seat 0, Mona the member = seat 1, the guest Gus = seat 2; five
scoring deals each, typed points), an unfinished kuwaiti sheet (one deal: Olivia's Colored Hand), a
sheet marked "do not count" and an online practice game (all three left out: deal figures count the
same finished, counted games as games and wins).

Classic: the winner scores -30 ("hand": -60); an opponent who opened scores the points held ("hand":
twice); one who had not opened 100 ("hand": 200). Kuwaiti Colored Hand: winner -120, an announced
opponent 4 × the points held.

    Sheet A  d1 O out      M 20        G not opened 100     -> O -30  M 20   G 100
             d2 M "hand"   O 10 (x2)   G 5 (x2)             -> O 20   M -60  G 10
             d3 O out      M not 100   G 30                 -> O -30  M 100  G 30
             d4 G out      O 15        M 25                 -> O 15   M 25   G -30
             d5 O "hand"   M not 200   G 7 (x2)             -> O -60  M 200  G 14
             totals O -85, M 285, G 124: Olivia wins; ranks O 1, G 2, M 3
    Sheet B  d1 M out      O 40        G not 100            -> O 40   M -30  G 100
             d2 M out      O not 100   G 12                 -> O 100  M -30  G 12
             (a void deal: not counted)
             d3 G "hand"   O 8 (x2)    M 9 (x2)             -> O 16   M 18   G -60
             d4 M out      O 3         G 4                  -> O 3    M -30  G 4
             d5 O out      M 6         G not 100            -> O -30  M 6    G 100
             totals O 129, M -66, G 156: Mona wins; ranks M 1, O 2, G 3
    Sheet C  d1 O out      M 10        G 10                 -> O -30  M 10   G 10
             d2 O out      M 50        G not 100            -> O -30  M 50   G 100
             d3 O out      M 2         G 2                  -> O -30  M 2    G 2
             d4 M out      O 5         G 5                  -> O 5    M -30  G 5
             d5 G out      O 20        M not 100            -> O 20   M 100  G -30
             totals O -65, M 132, G 87: Olivia wins; ranks O 1, G 2, M 3
    Kuwaiti  d1 O Colored Hand, M announced, 10 held        -> O -120 M 40
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import stats
from scoring.models import DealFact, RatedGame, Rating, rating_number
from scoring.services.deal_facts import score_facts
from scoring.services.deals import add_deal, edit_deal
from scoring.services.online import record_online_game
from scoring.services.sheets import link_guest, mark_do_not_count
from scoring.services.standings import counted_sheets
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet, void


def _sheet(group, owner, member, deals, rule_set="classic", players=None):
    sheet = make_sheet(group, owner, rule_set, players or [owner, member, "Gus"])
    for facts in deals:
        add_deal(sheet, by=owner, facts=facts)
    return sheet


@pytest.fixture
def history(group, owner, member):
    a = _sheet(
        group,
        owner,
        member,
        [
            hand(0, [True, True, False], [None, 20, None]),
            hand(1, [True, False, True], [10, None, 5], "hand"),
            hand(0, [True, False, True], [None, None, 30]),
            hand(2, [True, True, True], [15, 25, None]),
            hand(0, [False, False, True], [None, None, 7], "hand"),
        ],
    )
    b = _sheet(
        group,
        owner,
        member,
        [
            hand(1, [True, True, False], [40, None, None]),
            hand(1, [False, True, True], [None, None, 12]),
            void(3),
            hand(2, [True, True, False], [8, 9, None], "hand"),
            hand(1, [True, True, True], [3, None, 4]),
            hand(0, [True, True, False], [None, 6, None]),
        ],
    )
    c = _sheet(
        group,
        owner,
        member,
        [
            hand(0, [True, True, True], [None, 10, 10]),
            hand(0, [True, True, False], [None, 50, None]),
            hand(0, [True, True, True], [None, 2, 2]),
            hand(1, [True, True, True], [5, None, 5]),
            hand(2, [True, False, True], [20, None, None]),
        ],
    )
    kuwaiti = _sheet(
        group, owner, member, [hand(0, [False, True], [None, 10], "colored")], "kuwaiti", [owner, member]
    )
    left_out = _sheet(group, owner, member, [hand(1, [False, False, False], [None, None, None], "hand")])
    mark_do_not_count(left_out, by=owner)
    practice_deal = score_facts("classic", {}, 2, hand(0, [True, True], [None, 90]))
    record_online_game(
        group_id=group.pk,
        game_id=99,
        rule_set="classic",
        players=[
            {"seat": 0, "user_id": owner.pk, "name": owner.name},
            {"seat": 1, "user_id": None, "name": "Bot"},
        ],
        status=sheet_state(kuwaiti).status,  # unfinished: only the deal's facts matter here
        deals=[practice_deal],
    )
    return {"a": a, "b": b, "c": c, "kuwaiti": kuwaiti}


def test_the_hand_built_sheets_total_as_worked_out(history):
    for name, totals in (("a", (-85, 285, 124)), ("b", (129, -66, 156)), ("c", (-65, 132, 87))):
        state = sheet_state(history[name])
        assert state.status.finished
        assert state.status.totals == totals


def test_olivias_figures_are_those_worked_out_by_hand(group, owner, history):
    figures = stats.player_stats(group, "hand", f"user:{owner.pk}")
    assert figures.deals == 15  # 5 + 5 (the void deal is not one) + 5; not the unfinished kuwaiti sheet
    assert figures.went_out == 7
    assert figures.going_out_rate == 47
    assert figures.hand_finishes == 1  # A d5 "hand"
    assert figures.finishes == [("Went out “Hand”", 1)]
    assert figures.lost_deals == 8
    assert figures.not_opened == 1
    assert figures.never_opened_rate == 13
    assert figures.penalty_points == 20 + 15 + 40 + 100 + 16 + 3 + 5 + 20
    assert figures.average_penalty == 27.4  # 219 / 8
    assert figures.points == -85 + 129 - 65
    assert figures.average == -1.4
    assert (figures.best.points, figures.best.source_id, figures.best.number) == (-60, history["a"].pk, 5)
    assert (figures.worst.points, figures.worst.source_id, figures.worst.number) == (100, history["b"].pk, 2)
    assert (figures.games, figures.wins, figures.win_rate) == (3, 2, 67)  # A won, B lost, C won
    assert (figures.longest_win_streak, figures.longest_losing_streak, figures.current_streak) == (1, 1, 1)
    h2h = {row.name: (row.games, row.ahead, row.behind) for row in figures.head_to_head}
    assert h2h == {"Mona Member": (3, 2, 1), "Gus": (3, 3, 0)}
    assert figures.nemesis.name == "Mona Member"


def test_monas_figures_are_those_worked_out_by_hand(group, member, history):
    figures = stats.player_stats(group, "hand", f"user:{member.pk}")
    assert figures.deals == 15
    assert figures.went_out == 5
    assert figures.going_out_rate == 33
    assert figures.hand_finishes == 1
    assert figures.finishes == [("Went out “Hand”", 1)]
    # Lost without opening: A d3, A d5, C d5 of 10 deals lost.
    assert figures.lost_deals == 10
    assert figures.not_opened == 3
    assert figures.never_opened_rate == 30
    assert figures.penalty_points == (20 + 100 + 25 + 200) + (18 + 6) + (10 + 50 + 2 + 100)
    assert figures.average_penalty == 53.1  # 531 / 10
    assert figures.points == 285 - 66 + 132
    assert figures.average == 23.4
    assert (figures.best.points, figures.best.source_id, figures.best.number) == (-60, history["a"].pk, 2)
    assert (figures.worst.points, figures.worst.source_id, figures.worst.number) == (200, history["a"].pk, 5)
    assert (figures.games, figures.wins) == (3, 1)
    assert (figures.longest_win_streak, figures.longest_losing_streak, figures.current_streak) == (1, 1, -1)
    h2h = {row.name: (row.games, row.ahead, row.behind) for row in figures.head_to_head}
    assert h2h == {"Olivia Owner": (3, 1, 2), "Gus": (3, 1, 2)}
    assert figures.nemesis.name == "Gus"  # as bad as Olivia; the first by name


def test_the_guests_figures_are_those_worked_out_by_hand(group, history):
    figures = stats.player_stats(group, "hand", "guest:gus")
    assert figures.deals == 15
    assert figures.went_out == 3
    assert figures.going_out_rate == 20
    assert figures.hand_finishes == 1
    assert figures.lost_deals == 12
    assert figures.not_opened == 4
    assert figures.never_opened_rate == 33
    assert figures.average_penalty == 40.6  # (154 + 216 + 117) / 12
    assert figures.points == 124 + 156 + 87
    assert figures.average == 24.5
    assert (figures.best.points, figures.best.source_id, figures.best.number) == (-60, history["b"].pk, 3)
    assert (figures.worst.points, figures.worst.source_id, figures.worst.number) == (100, history["a"].pk, 1)
    assert (figures.games, figures.wins, figures.win_rate) == (3, 0, 0)
    assert (figures.longest_win_streak, figures.longest_losing_streak, figures.current_streak) == (0, 3, -3)
    h2h = {row.name: (row.games, row.ahead, row.behind) for row in figures.head_to_head}
    assert h2h == {"Olivia Owner": (3, 0, 3), "Mona Member": (3, 2, 1)}
    assert figures.nemesis.name == "Olivia Owner"


def test_the_rating_over_time_follows_each_rated_game(group, owner, history):
    key = f"user:{owner.pk}"
    figures = stats.player_stats(group, "hand", key)
    games = RatedGame.objects.filter(group=group, practice=False).order_by("finished_at", "source_id")
    assert [rating for _when, rating in figures.rating_history] == [
        rating_number(game.ratings[key][2]) for game in games
    ]
    assert figures.rating_history[-1][1] == Rating.objects.get(group=group, player_key=key).rating


def test_a_sheet_marked_do_not_count_and_a_practice_game_leave_no_counted_facts(group, owner, history):
    assert not DealFact.objects.filter(
        source="sheet", source_id__in=[s.pk for s in history.values()], practice=True
    )
    assert DealFact.objects.filter(source="online", source_id=99).count() == 2
    assert DealFact.objects.filter(source="online", source_id=99, practice=False).count() == 0


def test_editing_a_deal_rewrites_the_figures(group, owner, member, history):
    deal = history["c"].deals.get(position=2)
    edit_deal(deal, by=owner, facts=hand(1, [True, True, True], [8, None, 4]))
    figures = stats.player_stats(group, "hand", f"user:{member.pk}")
    assert figures.went_out == 6  # C d2 is now Mona's
    assert figures.points == 351 - 50 - 30


def test_a_linked_guest_takes_the_guests_figures(group, owner, admin, history):
    link_guest(group=group, by=owner, guest_name="Gus", user=admin)
    assert stats.player_stats(group, "hand", "guest:gus").deals == 0
    assert stats.player_stats(group, "hand", f"user:{admin.pk}").deals == 15


def test_a_player_with_no_games_has_empty_figures(group, admin):
    figures = stats.player_stats(group, "hand", f"user:{admin.pk}")
    assert (figures.deals, figures.games, figures.going_out_rate, figures.best, figures.nemesis) == (
        0,
        0,
        None,
        None,
        None,
    )


def test_the_player_page_costs_the_same_few_queries(
    client, group, owner, history, django_assert_max_num_queries
):
    client.force_login(owner)
    client.get(reverse("home"))  # the session's first page also keeps the reader's zone (once a session)
    url = reverse("scoring:player", args=[group.slug])
    with django_assert_max_num_queries(15):
        assert client.get(url, {"key": f"user:{owner.pk}"}).status_code == 200


def test_a_finished_and_an_unfinished_sheet_points_per_deal_counts_the_games_that_games_and_wins_count(
    group, owner, member
):
    finished = _sheet(
        group,
        owner,
        member,
        [hand(0, [True, True, True], [None, 10, 20])] * 5,  # Olivia out five times: -30 each
        players=[owner, member, "Gus"],
    )
    unfinished = _sheet(
        group, owner, member, [hand(1, [True, True, True], [70, None, 5])] * 2, players=[owner, member, "Gus"]
    )
    assert sheet_state(finished).status.finished
    assert not sheet_state(unfinished).status.finished
    figures = stats.player_stats(group, "hand", f"user:{owner.pk}")
    assert (figures.games, figures.wins) == (1, 1)
    assert (figures.deals, figures.went_out, figures.points, figures.average) == (5, 5, -150, -30.0)
    # An unfinished online game's deals, recorded as they end, wait for the game to finish too.
    online = [score_facts("classic", {}, 2, hand(1, [True, True], [40, None]))]
    players = [
        {"seat": 0, "user_id": owner.pk, "name": owner.name},
        {"seat": 1, "user_id": member.pk, "name": member.name},
    ]
    record_online_game(
        group_id=group.pk,
        game_id=7,
        rule_set="classic",
        players=players,
        status=sheet_state(unfinished).status,
        deals=online,
    )
    assert DealFact.objects.filter(source="online", source_id=7, practice=False).count() == 2
    again = stats.player_stats(group, "hand", f"user:{owner.pk}")
    assert (again.games, again.deals, again.average) == (1, 5, -30.0)
    # Finishing the sheet counts its game and its deals together.
    for _ in range(3):
        add_deal(unfinished, by=owner, facts=hand(1, [True, True, True], [70, None, 5]))
    assert sheet_state(unfinished).status.finished
    after = stats.player_stats(group, "hand", f"user:{owner.pk}")
    assert (after.games, after.wins, after.deals, after.points) == (2, 1, 10, -150 + 5 * 70)


def test_histories_and_streaks_follow_the_date_played_not_the_order_the_sheets_were_entered(
    group, owner, member, django_capture_on_commit_callbacks
):
    """Olivia wins the sheet entered first but played on the 20th, and loses the one entered next but
    played on the 10th: played in that order, she lost, then won."""
    won = make_sheet(group, owner, "classic", [owner, member], played_on=dt.date(2026, 11, 20))
    lost = make_sheet(group, owner, "classic", [owner, member], played_on=dt.date(2026, 11, 10))
    with django_capture_on_commit_callbacks(execute=True):  # the replay an older game queues
        for _ in range(5):
            add_deal(won, by=owner, facts=hand(0, [True, True], [None, 40]))
        for _ in range(5):
            add_deal(lost, by=owner, facts=hand(1, [True, True], [40, None]))
    assert won.created_at < lost.created_at
    figures = stats.player_stats(group, "hand", f"user:{owner.pk}")
    assert (figures.games, figures.wins) == (2, 1)
    assert (figures.longest_win_streak, figures.longest_losing_streak, figures.current_streak) == (1, 1, 1)
    assert [timezone.localdate(when) for when, _rating in figures.rating_history] == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 20),
    ]
    rated = RatedGame.objects.filter(group=group).order_by("finished_at")
    assert [game.source_id for game in rated] == [lost.pk, won.pk]
    assert [sheet.pk for sheet in counted_sheets(group)] == [won.pk, lost.pk]  # newest played first
    assert set(
        DealFact.objects.filter(source="sheet", source_id=lost.pk).values_list("played_at__date", flat=True)
    ) == {dt.date(2026, 11, 10)}
