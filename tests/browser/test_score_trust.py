"""Issue 29 on a 390x844 phone: each mistake that used to pass silently is now kept or refused in
words; Back then Save adds nothing (real browser history); two phones correcting one deal meet as a
conflict showing both versions; an edit is undone from the history."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from scoring.services.cards import result_card_token
from scoring.services.deals import add_deal, edit_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _form(group, sheet):
    return f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/"


def _save(phone):
    phone.get_by_role("button", name="Save the deal").click()


def test_points_typed_without_ticking_opened_are_kept_as_opened(new_phone, log_in, screenshot, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar", "Sara"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(_form(group, sheet))
    phone.locator("label.tile", has=phone.locator("#winner-0")).click()
    phone.fill("#id_held_points_1", "68")
    phone.fill("#id_held_points_3", "83")
    expect(phone.locator("#id_opened_1")).to_be_checked()  # the page says what the server will read
    expect(phone.locator("#id_opened_2")).not_to_be_checked()
    screenshot(phone, "score-trust-opened-implied-390")
    _save(phone)
    expect(phone.get_by_test_id("deals")).to_be_visible()
    facts = Deal.objects.get().facts
    assert facts["held"] == [None, 68, None, 83]
    assert facts["opened"] == [False, True, False, True]
    assert sheet_state(sheet).rows[0].score.points_by_seat()[1:] == (68, 100, 83)


def test_the_winners_partners_fields_are_hidden_and_not_sent(new_phone, log_in, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar", "Sara"], options={"teams": True})
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(_form(group, sheet))
    phone.fill("#id_held_points_2", "25")  # typed before the winner was chosen
    phone.locator("label.tile", has=phone.locator("#winner-0")).click()
    expect(phone.locator("#player-2")).to_be_hidden()
    phone.fill("#id_held_points_1", "10")
    phone.fill("#id_held_points_3", "5")
    _save(phone)
    expect(phone.get_by_test_id("deals")).to_be_visible()
    assert Deal.objects.get().facts["held"] == [None, 10, None, 5]


def test_a_hand_and_foot_field_hidden_by_going_out_is_not_checked(new_phone, log_in, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(_form(group, sheet))
    phone.fill("#id_held_points_0", "40")  # then Olivia's side goes out: the field is hidden
    phone.locator("label.tile", has=phone.locator("#went-out-0")).click()
    expect(phone.locator("#id_held_points_0")).to_be_hidden()
    for field, value in (("red_books_0", "1"), ("black_books_0", "1"), ("melded_points_0", "300")):
        phone.fill(f"#id_{field}", value)
    phone.fill("#id_melded_points_1", "100")
    phone.fill("#id_held_points_1", "35")
    _save(phone)
    expect(phone.get_by_test_id("deals")).to_be_visible()
    assert Deal.objects.get().facts["sides"][0]["held"] == [None]


def test_impossible_melded_points_are_refused_with_the_reason_beside_the_field(
    new_phone, log_in, screenshot, group, owner
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(_form(group, sheet))
    phone.locator("label.tile", has=phone.locator("#went-out-0")).click()
    for field, value in (("red_books_0", "1"), ("black_books_0", "1"), ("melded_points_0", "99995")):
        phone.fill(f"#id_{field}", value)
    phone.fill("#id_melded_points_1", "100")
    phone.fill("#id_held_points_1", "35")
    _save(phone)
    expect(phone.locator("#side-0")).to_contain_text("cannot have melded 99995 points")
    screenshot(phone, "score-trust-impossible-figure-390")
    assert not Deal.objects.exists()


def test_a_kuwaiti_win_is_saved_without_touching_how(new_phone, log_in, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "kuwaiti", [owner, "Lina", "Omar", "Sara"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(_form(group, sheet))
    phone.locator("label.tile", has=phone.locator("#winner-0")).click()
    phone.fill("#id_held_points_1", "30")
    _save(phone)
    expect(phone.get_by_test_id("deals")).to_be_visible()
    assert Deal.objects.get().facts["finish"] == "announcement"


def test_back_then_save_adds_nothing_and_shows_the_deal_saved(new_phone, log_in, screenshot, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    phone.get_by_role("link", name="Enter deal 1").click()
    phone.locator("label.tile", has=phone.locator("#winner-0")).click()
    phone.fill("#id_held_points_1", "25")
    _save(phone)
    expect(phone.get_by_test_id("deals")).to_be_visible()
    phone.go_back()  # the browser's own history: the form, refilled
    expect(phone.locator("#id_held_points_1")).to_have_value("25")
    _save(phone)
    expect(phone.locator("#deal-errors")).to_contain_text("Olivia Owner already saved deal 1.")
    screenshot(phone, "score-trust-back-then-save-390")
    assert Deal.objects.count() == 1
    phone.get_by_test_id("saved-first").click()
    expect(phone.get_by_test_id("deals")).to_be_visible()


def test_two_phones_correcting_one_deal_meet_as_a_conflict_with_both_versions(
    new_phone, log_in, screenshot, group, owner, member
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    edit = f"/groups/{group.slug}/sheets/{sheet.pk}/deals/{deal.pk}/edit/"
    olivia, mona = new_phone(), new_phone()
    log_in(olivia, owner)
    log_in(mona, member)
    olivia.goto(edit)
    mona.goto(edit)
    mona.fill("#id_held_points_1", "45")
    mona.get_by_role("button", name="Save the correction").click()
    expect(mona.get_by_test_id("deals")).to_be_visible()
    olivia.fill("#id_held_points_1", "30")
    olivia.get_by_role("button", name="Save the correction").click()
    conflict = olivia.get_by_test_id("conflict")
    expect(conflict).to_contain_text("Mona Member changed this deal at")
    expect(conflict).to_contain_text("45")  # hers
    expect(conflict).to_contain_text("30")  # yours
    expect(olivia.locator("#id_held_points_1")).to_have_value("30")  # nothing typed is lost
    screenshot(olivia, "score-trust-conflict-390")
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 45]
    olivia.get_by_test_id("keep-mine").click()
    expect(olivia.get_by_test_id("deals")).to_be_visible()
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 30]


def test_an_edit_is_undone_from_the_history(new_phone, log_in, screenshot, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 20]))
    edit_deal(deal, by=member, facts=hand(0, [False, True], [None, 45]))
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/#history")
    edited = phone.get_by_test_id("history").locator("li").first
    expect(edited).to_contain_text("Mona Member edited deal 1")
    expect(edited.get_by_test_id("change-figures")).to_contain_text("20")
    expect(edited.get_by_test_id("change-figures")).to_contain_text("45")
    screenshot(phone, "score-trust-history-390")
    edited.get_by_test_id("undo-change").click()
    expect(phone.get_by_test_id("history").locator("li").first).to_contain_text("Olivia Owner edited deal 1")
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 20]


def test_the_undo_notice_of_a_deletion_is_where_the_row_was(new_phone, log_in, screenshot, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina"])
    for _ in range(4):
        add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 5]))
    fourth = sheet.deals.order_by("position").last()
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    row = phone.locator(f"#deal-{fourth.pk}")
    row.scroll_into_view_if_needed()
    row.get_by_test_id("delete-deal").click()
    notice = phone.get_by_test_id("undo-delete")
    expect(notice).to_be_visible()
    expect(notice).to_be_in_viewport()  # the page brings it into view once the answer is swapped in
    box = notice.bounding_box()
    assert 0 <= box["y"] <= 844, f"the Undo notice is at {box['y']}px, outside the screen"
    notice.get_by_role("button", name="Undo").click()
    expect(phone.locator(f"#deal-{fourth.pk}")).to_be_visible()
    assert sheet.deals.filter(deleted_at__isnull=True).count() == 4


def test_a_finished_sheets_result_card_is_shared_with_the_phones_share_sheet(new_phone, log_in, group, owner):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina"])
    for _ in range(5):
        add_deal(sheet, by=owner, facts=hand(0, [False, True], [None, 5]))
    card = f"/results/{result_card_token(sheet=sheet)}/"
    plain = new_phone()
    log_in(plain, owner)
    plain.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    expect(plain.get_by_test_id("share-card")).to_be_hidden()  # no Web Share API: "Copy" it is
    phone = new_phone()
    phone.add_init_script("navigator.share = async (data) => { window.sharedData = data; };")
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    phone.get_by_test_id("share-card").click()
    shared = phone.evaluate("window.sharedData")
    assert shared["url"].endswith(card)
