"""The new-group form's invite-link checkbox: its label beside the box, its help text under both, in
English and Arabic (box on the right there), on a phone and a desktop, light and dark. Screenshots in
test-artifacts/."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_invite_link_box_has_its_label_beside_it_and_its_help_under_them(
    open_as, screenshot, width, language, scheme
):
    from tests.factories import UserFactory

    page = open_as(UserFactory(), "/groups/new/", width, language=language, dark=scheme == "dark")
    assert page.locator("html").get_attribute("lang") == language
    box = page.locator("#id_invite_link").bounding_box()
    label = page.locator('label[for="id_invite_link"]').bounding_box()
    help_text = page.locator("#id_invite_link_helptext").bounding_box()
    # Beside: the label's row overlaps the box's, on the side the language reads from.
    assert label["y"] < box["y"] + box["height"]
    assert box["y"] < label["y"] + label["height"]
    if language == "ar":
        assert label["x"] + label["width"] <= box["x"] + 1
    else:
        assert box["x"] + box["width"] <= label["x"] + 1
    # Under: the help starts below both.
    assert help_text["y"] >= max(box["y"] + box["height"], label["y"] + label["height"]) - 1
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    screenshot(page, f"group-form-invite-box-{width}-{language}-{scheme}")
