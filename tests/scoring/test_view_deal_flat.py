"""Issue 26: adding deal N+1 derives the sheet once (each deal scored once, plus the new deal's own
check), and the queries of a deal's save do not grow with the sheet's length. The form reads its
input without asking the service layer to derive the sheet."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from tests.scoring.conftest import keyed, make_sheet, void


def _save_one_more(client, group, owner, padding: int, monkeypatch) -> tuple[int, int]:
    sheet = make_sheet(group, owner, "classic", [owner, f"Guest {padding}"])
    for _ in range(padding):
        services.add_deal(sheet, by=owner, facts=void(2))
    calls = []
    real = services.score_facts
    monkeypatch.setattr(services, "score_facts", lambda *args: calls.append(1) or real(*args))
    client.force_login(owner)
    url = reverse("scoring:deal_new", args=[group.slug, sheet.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, keyed({"winner": "0", "finish": "normal", "held_points_1": "25"}))
    monkeypatch.setattr(services, "score_facts", real)
    assert response.status_code == 302
    return len(calls), len(queries)


@pytest.mark.django_db
def test_saving_deal_n_plus_1_scores_each_deal_once_and_its_queries_stay_flat(
    client, group, owner, monkeypatch
):
    short_calls, short_queries = _save_one_more(client, group, owner, 2, monkeypatch)
    long_calls, long_queries = _save_one_more(client, group, owner, 12, monkeypatch)
    assert short_calls == 2 + 2  # the two deals and the new one once, and the new deal's own check
    assert long_calls == 12 + 2
    assert long_queries == short_queries
