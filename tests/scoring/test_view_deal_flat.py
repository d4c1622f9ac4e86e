"""Adding deal N+1 derives the sheet once: the engine scores each deal once, the new one included, and
the queries of a deal's save do not grow with the sheet's length. The deal form reads its input without
the database and without scoring the sheet."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine.errors import DomainError
from games.engine.picker import held_value
from scoring.forms import DealForm
from scoring.services import deal_facts
from scoring.services.deals import add_deal
from scoring.services.errors import error_sentence
from scoring.services.state import sheet_frame
from tests.scoring.conftest import keyed, make_sheet, void


def _counting(monkeypatch, name: str) -> list:
    """Count the calls of the engine's deal scoring function ``name`` as the sheets call it."""
    calls = []
    real = getattr(deal_facts, name)
    monkeypatch.setattr(deal_facts, name, lambda *args: calls.append(1) or real(*args))
    return calls


def _save_one_more(client, group, owner, padding: int, monkeypatch) -> tuple[int, int]:
    sheet = make_sheet(group, owner, "classic", [owner, f"Guest {padding}"])
    for _ in range(padding):
        add_deal(sheet, by=owner, facts=void(2))
    client.force_login(owner)
    url = reverse("scoring:deal_new", args=[group.slug, sheet.pk])
    with monkeypatch.context() as patch:
        calls = _counting(patch, "score_hand_deal")
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url, keyed({"winner": "0", "finish": "normal", "held_points_1": "25"}))
    assert response.status_code == 302
    return len(calls), len(queries)


@pytest.mark.django_db
def test_saving_deal_n_plus_1_scores_each_deal_once_and_its_queries_stay_flat(
    client, group, owner, monkeypatch
):
    short_calls, short_queries = _save_one_more(client, group, owner, 2, monkeypatch)
    long_calls, long_queries = _save_one_more(client, group, owner, 12, monkeypatch)
    assert short_calls == 2 + 1
    assert long_calls == 12 + 1
    assert long_queries == short_queries


@pytest.mark.django_db
def test_adding_a_hand_and_foot_deal_scores_each_deal_once(group, owner, monkeypatch):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Guest"])
    side = {"red_books": 1, "black_books": 1, "melded_points": 300, "picked_22": 0}
    deal = {"sides": [{**side, "held": [None], "went_out": True}, {**side, "held": [40], "went_out": False}]}
    for _ in range(3):
        add_deal(sheet, by=owner, facts=deal)
    calls = _counting(monkeypatch, "score_handfoot_deal")
    add_deal(sheet, by=owner, facts=deal)
    assert len(calls) == 3 + 1


@pytest.mark.django_db
def test_a_refused_deal_is_scored_once_and_saves_nothing(group, owner, monkeypatch):
    sheet = make_sheet(group, owner, "classic", [owner, "Guest"])
    for _ in range(4):
        add_deal(sheet, by=owner, facts=void(2))
    calls = _counting(monkeypatch, "score_hand_deal")
    with pytest.raises(deal_facts.SheetError):
        add_deal(
            sheet, by=owner, facts={"winner": 5, "finish": "normal", "opened": [True, True], "held": [0, 0]}
        )
    assert len(calls) == 4 + 1
    assert sheet.deals.count() == 4


@pytest.mark.django_db
def test_correcting_a_deal_scores_each_deal_twice_the_sheet_before_and_after(
    client, group, owner, monkeypatch
):
    sheet = make_sheet(group, owner, "classic", [owner, "Guest"])
    first = add_deal(sheet, by=owner, facts=void(2))
    for _ in range(5):
        add_deal(sheet, by=owner, facts=void(2))
    client.force_login(owner)
    url = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, first.pk])
    calls = _counting(monkeypatch, "score_hand_deal")
    response = client.post(url, {"winner": "0", "finish": "normal", "held_points_1": "25", "version": "1"})
    assert response.status_code == 302
    assert len(calls) == 2 * 6


@pytest.mark.django_db
def test_the_deal_form_reads_a_deal_with_cards_without_a_query_or_a_score(group, owner, monkeypatch):
    sheet = make_sheet(group, owner, "classic", [owner, "Guest", "Gina"])
    for _ in range(3):
        add_deal(sheet, by=owner, facts=void(3))
    players, sides = sheet_frame(sheet)
    post = {
        "winner": "0",
        "finish": "normal",
        "held_cards_1": "KS 7H",
        "held_points_1": "17",
        "held_points_2": "5",
    }
    calls = _counting(monkeypatch, "score_hand_deal")
    with CaptureQueriesContext(connection) as queries:
        form = DealForm(post, sheet=sheet, players=players, sides=sides)
        valid = form.is_valid()
    assert valid, form.errors
    assert form.cleaned_data["facts"]["held"] == [None, "KS 7H", 5]
    assert len(queries) == 0
    assert calls == []


@pytest.mark.django_db
def test_the_deal_form_refuses_cards_that_disagree_with_the_points_or_cannot_be_read(group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Guest", "Gina"])
    players, sides = sheet_frame(sheet)
    post = {
        "winner": "0",
        "finish": "normal",
        "held_cards_1": "KS 7H",
        "held_points_1": "40",
        "held_cards_2": "KS 7Z",
        "held_points_2": "17",
    }
    form = DealForm(post, sheet=sheet, players=players, sides=sides)
    assert not form.is_valid()
    assert list(form.errors) == ["held_points_1", "held_cards_2"]
    with pytest.raises(DomainError) as refused:
        held_value("classic", 3, "KS 7Z", None)
    assert form.errors["held_cards_2"] == [f"Gina: {error_sentence(refused.value)}"]
