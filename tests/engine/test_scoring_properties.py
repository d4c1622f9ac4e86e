"""Property tests: deal scores follow the tables for random facts; game totals add up."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import make_deck
from games.engine.handfoot import HandFootSideFacts, handfoot_held_cost, score_handfoot_deal
from games.engine.match import DealRecord, match_status
from games.engine.scoring import (
    HAND_NAMES,
    KUWAITI_TABLE,
    STANDARD_TABLE,
    HandDealFacts,
    deal_wilds,
    max_held_value,
    penalty_value,
    score_hand_deal,
)
from games.engine.variants import HAND_VARIANTS, scoring_deals

FINISHES_BY_SLUG = {
    "classic": ("normal", "hand"),
    "saudi": ("normal", "hand"),
    "jordanian": ("normal", "hand"),
    "egyptian": ("normal", "hand", *HAND_NAMES[1:]),
    "kuwaiti": HAND_NAMES,
}


def row_for(slug: str, finish: str):
    if slug == "kuwaiti":
        return KUWAITI_TABLE[finish]
    if finish in STANDARD_TABLE:
        return STANDARD_TABLE[finish]
    return STANDARD_TABLE["hand"] if finish == "regular" else KUWAITI_TABLE[finish]


@st.composite
def hand_deals(draw, teams: bool | None = None):
    slugs = sorted(slug for slug, v in HAND_VARIANTS.items() if v.teams_allowed or not teams)
    slug = draw(st.sampled_from(slugs))
    variant = HAND_VARIANTS[slug]
    if teams is None:
        teams = variant.teams_allowed and draw(st.booleans())
    players = 4 if teams else draw(st.integers(variant.min_players, variant.max_players))
    winner = draw(st.integers(0, players - 1))
    finish = draw(st.sampled_from(FINISHES_BY_SLUG[slug]))
    opened = [draw(st.booleans()) for _ in range(players)]
    opened[winner] = finish in ("normal", "announcement") and (slug == "kuwaiti" or opened[winner])
    deck = make_deck(variant.decks_for(players), 2)
    indicator = None
    if variant.indicator:
        indicator = draw(st.sampled_from([c for c in deck if c.rank]))
        deck = [c for c in deck if c.id != indicator.id]
    pool = draw(st.permutations(deck))
    held = []
    for seat in range(players):
        if seat == winner:
            held.append(None)
        elif draw(st.booleans()):
            held.append(draw(st.integers(2, max_held_value(variant))))
        else:
            count = draw(st.integers(1, 14))
            held.append(tuple(pool[:count]))
            pool = pool[count:]
    irregular = ()
    if slug == "kuwaiti":
        irregular = tuple(seat != winner and draw(st.booleans()) for seat in range(players))
    facts = HandDealFacts(
        players=players,
        winner=winner,
        finish=finish,
        opened=tuple(opened),
        held=tuple(held),
        irregular=irregular,
        teams=teams,
        indicator=indicator,
    )
    return slug, facts


def alone(slug, facts, seat):
    """What ``seat`` scores alone, computed straight from the tables."""
    row = row_for(slug, facts.finish)
    if seat == facts.winner:
        return row.winner
    if facts.irregular and facts.irregular[seat]:
        return row.irregularity
    if not facts.opened[seat]:
        return row.not_opened
    held = facts.held[seat]
    if isinstance(held, int):
        return held * row.multiplier
    wilds = deal_wilds(slug, facts.indicator)
    return sum(penalty_value(card, slug, wilds) for card in held) * row.multiplier


@settings(max_examples=300, deadline=None)
@given(hand_deals(teams=False))
def test_every_seat_scores_its_table_figure(case):
    slug, facts = case
    score = score_hand_deal(slug, {}, facts)
    assert score.points_by_seat() == tuple(alone(slug, facts, seat) for seat in range(facts.players))
    assert score.points_by_seat()[facts.winner] in {row.winner for row in KUWAITI_TABLE.values()}
    for side in score.sides:
        assert side.points == sum(part.points for part in side.parts)


@settings(max_examples=200, deadline=None)
@given(hand_deals(teams=True))
def test_a_team_scores_the_sum_of_its_members_figures_except_the_out_team(case):
    slug, facts = case
    score = score_hand_deal(slug, {}, facts)
    for side in score.sides:
        if facts.winner in side.seats:
            assert side.points == row_for(slug, facts.finish).winner
        else:
            assert side.points == sum(alone(slug, facts, seat) for seat in side.seats)
        assert side.points == sum(part.points for part in side.parts)


@st.composite
def handfoot_sides(draw):
    slug = draw(st.sampled_from(["hand-and-foot", "hand-and-foot-teams"]))
    count = 2 if slug == "hand-and-foot-teams" else draw(st.integers(2, 8))
    out = draw(st.none() | st.integers(0, count - 1))
    deck = make_deck(1, 2)
    sides = []
    for index in range(count):
        red = draw(st.integers(1 if index == out else 0, 3))
        black = draw(st.integers(1 if index == out else 0, 3))
        melded = draw(st.integers(0, 60)) * 5 + 35 * red + 50 * black
        if index == out and slug == "hand-and-foot":
            held = ()  # the player who went out holds nothing
        else:
            held = tuple(draw(st.lists(st.sampled_from(deck), max_size=20)))
        bonus = draw(st.integers(0, 2)) if slug == "hand-and-foot-teams" else 0
        sides.append(HandFootSideFacts(red, black, melded, (), held, index == out, bonus))
    return slug, sides


@settings(max_examples=200, deadline=None)
@given(handfoot_sides())
def test_hand_and_foot_sides_score_books_points_held_and_bonuses(case):
    slug, sides = case
    score = score_handfoot_deal(slug, {}, sides)
    teams = slug == "hand-and-foot-teams"
    for facts, side in zip(sides, score.sides, strict=True):
        held = 0 if (facts.went_out and teams) else handfoot_held_cost(facts.held, slug)
        expected = (
            500 * facts.red_books
            + 300 * facts.black_books
            + facts.melded_points
            - held
            + 100 * facts.went_out
            + 100 * facts.picked_22
        )
        assert side.points == expected == sum(part.points for part in side.parts)


@settings(max_examples=200, deadline=None)
@given(
    slug=st.sampled_from(sorted(HAND_VARIANTS)),
    players=st.integers(2, 4),
    data=st.data(),
)
def test_match_totals_are_sums_of_non_void_deals_and_the_deal_count_is_exact(slug, players, data):
    from games.engine.scoring import DealScore, SideScore

    required = scoring_deals(HAND_VARIANTS[slug], {})
    deals = []
    dealer = 0
    status = match_status(slug, {}, players, 0, deals)
    while not status.finished and len(deals) < 40:
        void = data.draw(st.booleans().map(lambda b: b and data.draw(st.booleans())))
        points = data.draw(st.lists(st.integers(-60, 200), min_size=players, max_size=players))
        score = DealScore(
            tuple(SideScore((seat,), 0 if void else value) for seat, value in enumerate(points)), void=void
        )
        deals.append(DealRecord(dealer, score))
        status = match_status(slug, {}, players, 0, deals)
        dealer = status.next_dealer if status.next_dealer is not None else dealer
    counted = [record.score for record in deals if not record.score.void]
    sums = tuple(sum(score.sides[seat].points for score in counted) for seat in range(players))
    assert status.totals == sums
    if status.finished:
        assert len(counted) >= required
        assert status.scoring_deals_played == len(counted)
        assert list(status.totals).count(min(status.totals)) == 1  # tie_break defaults on everywhere
        # Without the tie it would have ended at exactly the required number of deals.
        if len(counted) > required:
            totals_then = [sum(s.sides[seat].points for s in counted[:required]) for seat in range(players)]
            assert totals_then.count(min(totals_then)) > 1
