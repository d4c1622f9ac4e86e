"""The list of a form's errors (templates/forms/errors.html) on a phone and a desktop, in English and
Arabic, light and dark: visible at the top of the form, each field's entry links to the field, nothing
scrolls sideways even with a 5,000-character value in the error. Screenshots in test-artifacts/."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sign_up_errors_are_listed_at_the_top_and_fit(
    browser, live_server, screenshot, width, language, scheme
):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto("/accounts/signup/")
    assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    page.fill("#id_email", "not-an-address-" + "x" * 5000)
    page.fill("#id_password1", "a")
    page.fill("#id_password2", "b")
    page.evaluate("document.querySelector('form.account-form').noValidate = true")
    page.locator("form.account-form [type=submit]").first.click()
    summary = page.locator(".form-errors")
    summary.wait_for()
    assert summary.is_visible()
    assert summary.locator('a[href="#id_email"]').count() == 1
    box = summary.bounding_box()
    form_box = page.locator("form.account-form").bounding_box()
    assert box["y"] <= form_box["y"] + 5  # the first thing in the form
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    screenshot(page, f"form-errors-signup-{width}-{language}-{scheme}")
    context.close()
