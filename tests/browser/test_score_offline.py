"""Score entry without signal, in Chromium with the service worker: deals saved with no connection are
kept on the phone and shown as waiting, then sent in order once when the connection is back; a replayed
id adds nothing; a refused deal shows the server's reason and is kept to fix or drop. The sheet with
waiting deals fits a 360 px phone in English and Arabic, light and dark (screenshots)."""

from __future__ import annotations

import time

import pytest

from scoring.models import Deal
from scoring.services.deals import add_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet
from tests.support import wait_until_true

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sheet_url(group, sheet):
    return f"/groups/{group.slug}/sheets/{sheet.pk}/"


def _controlled_with_kept_pages(page, group, sheet):
    """The worker controls the sheet page, and the page has kept itself and its deal form for offline."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until_true(page, "navigator.serviceWorker.controller !== null")
    form = _sheet_url(group, sheet) + "deals/new/"
    for _ in range(50):
        if page.evaluate(f'caches.open("kept-pages").then((c) => c.match("{form}")).then(Boolean)'):
            return
        time.sleep(0.1)
    raise AssertionError("the deal form was not kept for offline use")


def _enter(page, winner: int, held: dict[int, str]):
    page.locator("label.tile", has=page.locator(f"#winner-{winner}")).click()
    for seat, points in held.items():
        page.fill(f"#id_held_points_{seat}", points)
    page.get_by_role("button", name="Save the deal").click()


def _wait(predicate, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("waited in vain")


def _go_offline_to_the_deal_form(open_as, group, owner, sheet, width=390, language="en", dark=False):
    page = open_as(owner, _sheet_url(group, sheet), width, language=language, dark=dark)
    _controlled_with_kept_pages(page, group, sheet)
    page.context.set_offline(True)
    page.locator(f'a[href="{_sheet_url(group, sheet)}deals/new/"]').click()
    page.wait_for_selector("#deal-form")
    return page


def test_two_deals_entered_offline_arrive_once_in_order_when_the_connection_is_back(
    open_as, group, owner, member
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = _go_offline_to_the_deal_form(open_as, group, owner, sheet)
    _enter(page, 2, {0: "25", 1: "40", 3: "10"})
    waiting = page.get_by_test_id("waiting-deal")
    expect(waiting).to_have_count(1)
    expect(waiting.first).to_contain_text("Waiting to send")
    expect(waiting.first).to_contain_text("Gina")
    expect(waiting.first).to_contain_text("40")
    expect(waiting.first).to_contain_text("Scored when sent.")
    _enter(page, 1, {0: "15", 2: "20", 3: "5"})
    expect(waiting).to_have_count(2)
    ids = [waiting.nth(i).get_attribute("data-id") for i in range(2)]
    assert len(set(ids)) == 2
    assert not Deal.objects.exists()

    page.context.set_offline(False)  # the `online` event sends them
    _wait(lambda: Deal.objects.count() == 2)
    expect(page.get_by_test_id("waiting-deals")).to_be_hidden()
    deals = list(Deal.objects.order_by("position"))
    assert [str(d.client_id) for d in deals] == ids
    assert [d.facts["winner"] for d in deals] == [2, 1]
    assert [d.facts["held"] for d in deals] == [[25, 40, None, 10], [15, None, 20, 5]]
    assert sheet_state(sheet).status.scoring_deals_played == 2

    # The same id again (an answer lost on the way back): the server adds nothing.
    status = page.evaluate(
        """async ([post, id]) => {
            const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
            const body = new URLSearchParams({
                csrfmiddlewaretoken: token, deal_key: id, position: "1", winner: "2", finish: "normal",
                held_points_0: "25", held_points_1: "40", held_points_3: "10",
            });
            const response = await fetch(post, {method: "POST", body, credentials: "same-origin"});
            return response.status;
        }""",
        [_sheet_url(group, sheet) + "deals/new/", ids[0]],
    )
    assert status == 200
    # Kept again on the phone with the same id (sent, but the phone never heard back): sent once more, it
    # is recognised on the sheet and leaves.
    page.evaluate(
        """(id) => new Promise((resolve) => {
            const open = indexedDB.open("hand-scores", 1);
            open.onsuccess = () => {
                const tx = open.result.transaction("deals", "readwrite");
                const sheet = document.querySelector("[data-offline-deals]").dataset.sheet;
                tx.objectStore("deals").put({
                    id, sheet, order: 1, made: Date.now(), position: 1, fields: [["winner", "2"]], facts: [],
                    state: "waiting",
                });
                tx.oncomplete = () => resolve(true);
            };
        })""",
        ids[1],
    )
    page.goto(_sheet_url(group, sheet))
    expect(page.get_by_test_id("waiting-deals")).to_be_hidden()
    assert Deal.objects.count() == 2


def test_a_deal_someone_saved_first_is_shown_with_the_reason_and_kept_to_drop(
    open_as, screenshot, group, owner, member
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = _go_offline_to_the_deal_form(open_as, group, owner, sheet)
    _enter(page, 2, {0: "25", 1: "40", 3: "10"})
    _enter(page, 1, {0: "15", 2: "20", 3: "5"})
    # Meanwhile Mona, with signal, saves deal 1 from her phone.
    add_deal(sheet, by=member, facts=hand(3, [True, True, True, False], [5, 5, 5, None]))

    page.context.set_offline(False)
    refused = page.get_by_test_id("waiting-deal").first
    expect(refused.get_by_test_id("waiting-reason")).to_have_text("Mona Member already saved deal 1.")
    expect(refused).to_contain_text("Not saved")
    expect(page.get_by_test_id("waiting-deal").nth(1)).to_contain_text("Waiting to send")  # behind it
    assert Deal.objects.count() == 1
    screenshot(page, "waiting-deal-refused-390")

    page.once("dialog", lambda dialog: dialog.accept())  # "Drop this deal? ... is lost."
    refused.get_by_test_id("drop-waiting").click()  # its place is Mona's: the next keeps place 2
    _wait(lambda: Deal.objects.count() == 2)
    assert Deal.objects.get(position=2).facts["winner"] == 1
    expect(page.get_by_test_id("waiting-deals")).to_be_hidden()


def test_a_deal_that_breaks_a_rule_shows_the_reason_and_is_sent_once_fixed(open_as, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = _go_offline_to_the_deal_form(open_as, group, owner, sheet)
    page.fill("#id_held_points_0", "25")  # nobody went out
    page.get_by_role("button", name="Save the deal").click()
    expect(page.get_by_test_id("waiting-deal")).to_have_count(1)

    page.context.set_offline(False)
    page.get_by_test_id("send-waiting").click()
    reason = page.get_by_test_id("waiting-reason")
    expect(reason).to_have_text("Say who went out, or mark the deal as void.")
    assert not Deal.objects.exists()

    page.get_by_test_id("fix-waiting").click()  # back into the form, as typed
    expect(page.locator("#id_held_points_0")).to_have_value("25")
    _enter(page, 2, {1: "40", 3: "10"})
    _wait(lambda: Deal.objects.count() == 1)
    assert Deal.objects.get().facts["held"] == [25, 40, None, 10]


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_sheet_with_waiting_deals_fits_a_phone(open_as, screenshot, group, owner, member, language, dark):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = _go_offline_to_the_deal_form(open_as, group, owner, sheet, 360, language, dark)
    save = "احفظ الجولة" if language == "ar" else "Save the deal"
    page.locator("label.tile", has=page.locator("#winner-2")).click()
    page.fill("#id_held_points_0", "25")
    page.fill("#id_held_points_1", "40")
    page.get_by_role("button", name=save).click()
    page.locator("label.tile", has=page.locator("#winner-0")).click()
    page.fill("#id_held_points_3", "15")
    page.get_by_role("button", name=save).click()
    expect(page.get_by_test_id("waiting-deal")).to_have_count(2)
    page.goto(_sheet_url(group, sheet))  # offline: the kept sheet, with the deals waiting
    expect(page.get_by_test_id("waiting-deal")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, f"sheet-waiting-deals-360-{language}-{'dark' if dark else 'light'}")


def test_the_sheet_keeps_the_screen_on_until_the_toggle_says_not_to(open_as, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = open_as(owner, _sheet_url(group, sheet), 390)
    toggle = page.get_by_test_id("wake-lock")
    expect(toggle).to_be_checked()
    box = page.locator("[data-wake-lock]")
    expect(box).to_have_attribute("data-held", "1")  # Screen Wake Lock held while the sheet is open
    toggle.uncheck()
    expect(box).to_have_attribute("data-held", "0")
    page.reload()  # the choice stays on this phone
    expect(page.get_by_test_id("wake-lock")).not_to_be_checked()
    assert page.locator("[data-wake-lock]").get_attribute("data-held") is None


def test_a_deal_saved_on_another_phone_meanwhile_does_not_make_the_offline_deal_out_of_date(
    open_as, group, owner, member
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = open_as(owner, _sheet_url(group, sheet), 390)
    _controlled_with_kept_pages(page, group, sheet)
    add_deal(sheet, by=member, facts=hand(3, [True, True, True, False], [5, 5, 5, None]))
    # the live part (polled every 5 s) brings it
    expect(page.get_by_test_id("deals").locator("tbody tr[data-deal-key]")).to_have_count(1, timeout=15000)
    form = _sheet_url(group, sheet) + "deals/new/"
    _wait(
        lambda: (
            'name="position" value="2"'
            in page.evaluate(
                f'caches.open("kept-pages").then((c) => c.match("{form}")).then((r) => r.text())'
            )
        )
    )
    page.context.set_offline(True)
    page.goto(form)
    _enter(page, 2, {0: "25", 1: "40", 3: "10"})
    expect(page.get_by_test_id("waiting-deal")).to_have_count(1)
    page.context.set_offline(False)
    _wait(lambda: Deal.objects.count() == 2)
    assert Deal.objects.get(position=2).created_by == owner


def test_signing_out_forgets_the_pages_kept_for_offline(open_as, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = open_as(owner, _sheet_url(group, sheet), 390)
    _controlled_with_kept_pages(page, group, sheet)
    page.context.clear_cookies()
    page.goto("/")
    _wait(lambda: not page.evaluate('caches.has("kept-pages")'))


def test_with_no_sheet_open_background_sync_sends_the_kept_deals(open_as, live_server, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    page = _go_offline_to_the_deal_form(open_as, group, owner, sheet)
    _enter(page, 2, {0: "25", 1: "40", 3: "10"})
    _enter(page, 1, {0: "15", 2: "20", 3: "5"})
    expect(page.get_by_test_id("waiting-deal")).to_have_count(2)
    elsewhere = page.context.new_page()  # a tab outside the site, to talk to the browser
    cdp = page.context.new_cdp_session(elsewhere)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(100):  # the events arrive while Playwright waits
        if any(not r["isDeleted"] for r in registrations):
            break
        elsewhere.wait_for_timeout(100)
    page.close()  # no sheet open any more
    elsewhere.context.set_offline(False)
    registration = next(r for r in registrations if not r["isDeleted"])
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "tag": "hand-deals",
            "lastChance": False,
        },
    )
    _wait(lambda: Deal.objects.count() == 2)
    assert [d.facts["winner"] for d in Deal.objects.order_by("position")] == [2, 1]
