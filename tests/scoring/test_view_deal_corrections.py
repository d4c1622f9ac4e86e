"""A deal saved twice from one form is saved once; two corrections of the same deal meet
as a conflict that shows both versions and loses nothing; any change in the history can be undone."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scoring.models import Deal, DealChange
from scoring.services.deals import add_deal, delete_deal, edit_deal, undo_change
from scoring.services.errors import SheetError
from tests.scoring.conftest import hand, make_sheet, void

DEAL = {"winner": "0", "finish": "normal", "held_points_1": "25"}


def _new(group, sheet):
    return reverse("scoring:deal_new", args=[group.slug, sheet.pk])


def _edit(group, sheet, deal):
    return reverse("scoring:deal_edit", args=[group.slug, sheet.pk, deal.pk])


@pytest.mark.django_db
def test_the_same_form_saved_twice_adds_nothing_and_shows_the_deal_saved_first(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    page = client.get(_new(group, sheet)).content.decode()
    key = page.split('name="deal_key_page" value="')[1].split('"')[0]
    assert uuid.UUID(key)
    # Back, then Save: the browser refills the form (its id too); the position is the fresh page's.
    assert client.post(_new(group, sheet), {**DEAL, "deal_key": key, "position": "1"}).status_code == 302
    response = client.post(_new(group, sheet), {**DEAL, "deal_key": key, "position": "2"})
    assert response.status_code == 200
    deal = Deal.objects.get()
    body = response.content.decode()
    assert "Olivia Owner already saved deal 1." in body
    assert f"#deal-{deal.pk}" in body
    assert DealChange.objects.count() == 1


@pytest.mark.django_db
def test_a_post_without_the_forms_id_is_refused_and_saves_nothing(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    response = client.post(_new(group, sheet), DEAL)
    assert response.status_code == 200
    assert "This form is out of date: open the sheet again." in response.content.decode()
    assert not Deal.objects.exists()


@pytest.fixture
def corrected(group, owner, member):
    """A sheet whose first deal Mona corrects while Olivia's edit page is still open."""
    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    edit_deal(deal, by=member, facts=hand(0, [False, True], [None, 45]), version=1)
    return sheet, deal


@pytest.mark.django_db
def test_a_stale_correction_is_refused_with_both_versions_and_nothing_typed_lost(
    client, group, owner, corrected
):
    sheet, deal = corrected
    client.force_login(owner)
    response = client.post(
        _edit(group, sheet, deal), {"winner": "0", "finish": "normal", "held_points_1": "30", "version": "1"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Mona Member changed this deal at" in body
    assert "Mona Member&#x27;s version" in body or "Mona Member's version" in body
    assert "45" in body.split('data-testid="conflict"')[1]  # theirs
    assert 'name="held_points_1" id="id_held_points_1" value="30"' in body  # yours, as typed
    assert 'name="version_page" value="2"' in body  # "Keep yours" saves over the version now shown
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 45]
    # Keep yours.
    response = client.post(
        _edit(group, sheet, deal), {"winner": "0", "finish": "normal", "held_points_1": "30", "version": "2"}
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 30]
    assert deal.version == 3


@pytest.mark.django_db
def test_a_correction_of_a_deal_deleted_meanwhile_is_kept_and_can_bring_it_back(
    client, group, owner, member, corrected
):
    sheet, deal = corrected
    delete_deal(deal, by=member)
    client.force_login(owner)
    data = {"winner": "0", "finish": "normal", "held_points_1": "30", "version": "2"}
    response = client.post(_edit(group, sheet, deal), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Mona Member deleted this deal at" in body
    assert 'value="30"' in body
    assert "Keep yours (bring the deal back)" in body
    response = client.post(_edit(group, sheet, deal), {**data, "version": "3"})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.deleted_at is None
    assert deal.facts["held"] == [None, 30]


@pytest.mark.django_db
def test_an_edit_is_undone_from_the_history_with_its_old_and_new_figures(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    edit_deal(deal, by=member, facts=hand(0, [False, True], [None, 45]))
    client.force_login(owner)
    page = client.get(sheet.get_absolute_url()).content.decode()
    history = page.split('data-testid="history"')[1]
    edited = history.split("<li")[1]
    assert "Mona Member edited deal 1" in edited
    assert '<bdi dir="ltr">20</bdi>' in edited.split("<del>")[1].split("</del>")[0]
    assert '<bdi dir="ltr">45</bdi>' in edited.split("<ins>")[1].split("</ins>")[0]
    change = DealChange.objects.get(action="edited")
    undo = reverse("scoring:change_undo", args=[group.slug, sheet.pk, change.pk])
    assert undo in edited
    # Only the latest change of a deal can be undone: the entry's Undo is not offered.
    entered = DealChange.objects.get(action="created")
    assert reverse("scoring:change_undo", args=[group.slug, sheet.pk, entered.pk]) not in page
    assert client.post(undo).status_code == 302
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 20]
    latest = DealChange.objects.order_by("-pk").first()
    assert (latest.action, latest.old_facts["held"], latest.new_facts["held"]) == (
        "edited",
        [None, 45],
        [None, 20],
    )
    assert latest.details["undo_of"] == change.pk
    # The older change is refused now (it is no longer the latest of its deal).
    assert client.post(undo).status_code == 302
    assert DealChange.objects.count() == 3


@pytest.mark.django_db
def test_undoing_an_entry_deletes_the_deal_and_undoing_that_brings_it_back(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    undo_change(DealChange.objects.get(action="created"), by=member)
    deal.refresh_from_db()
    assert deal.deleted_at is not None
    undo_change(DealChange.objects.get(action="deleted"), by=owner)
    deal.refresh_from_db()
    assert deal.deleted_at is None
    with pytest.raises(SheetError, match="undo the later change first"):
        undo_change(DealChange.objects.get(action="created"), by=owner)


@pytest.mark.django_db
def test_the_edit_page_says_which_deal_it_is(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member], first_dealer=1)
    add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    second = add_deal(sheet, by=owner, facts=hand(1, [True, False], [20, None]))
    client.force_login(owner)
    page = client.get(_edit(group, sheet, second)).content.decode()
    assert "Correct deal 2 (dealt by Olivia Owner)" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "scoring_deal", "void_deal"),
    [
        ("en", "Correct deal 2 (dealt by Olivia Owner)", "Correct the void deal dealt by Mona Member"),
        (
            "ar",
            "تصحيح الجولة 2 (وزّعها Olivia Owner)",
            "تصحيح الجولة الملغاة التي وزّعها Mona Member",
        ),
    ],
)
def test_the_edit_page_of_a_void_deal_and_in_arabic_says_which_deal_it_is(
    client, group, owner, member, language, scoring_deal, void_deal
):
    owner.language = language
    owner.save()
    sheet = make_sheet(group, owner, "classic", [owner, member], first_dealer=0)
    add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    voided = add_deal(sheet, by=owner, facts=void(2))
    second = add_deal(sheet, by=owner, facts=hand(1, [True, False], [20, None]))
    client.force_login(owner)

    def heading(deal) -> str:  # without the marks that keep a name's direction apart in Arabic
        page = client.get(_edit(group, sheet, deal)).content.decode()
        return page.split("<h1>")[1].split("</h1>")[0].replace("\u2068", "").replace("\u2069", "")

    assert heading(voided) == void_deal
    assert heading(second) == scoring_deal
