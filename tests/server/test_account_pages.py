"""The account pages in Chromium (issue 32): register, sign out and in, a name with HTML shown as text,
a seat kept in the account from the table page, the password changed, and the account deleted
("deleted player")."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts_helpers import PASSWORD
from .browsing import needs_chromium, screenshot
from .live_server import LiveServer

NAME = "<img src=x onerror=1>"
"""A display name that is markup: it must show as these characters."""


@needs_chromium
@pytest.mark.slow
def test_register_sign_in_keep_a_seat_and_delete_through_the_pages(browser: Any, server: LiveServer) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server.url + "/")
    page.click("#account-link")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.fill("#register-username", "ana")
    page.fill("#register-password", PASSWORD)
    page.fill("#register-display", NAME)
    page.click("#register-button")
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.text_content("#me-username") == "ana" and page.input_value("#me-display") == NAME
    page.click("#signout-button")
    page.wait_for_selector("#signed-out:not([hidden])")
    page.fill("#signin-username", "ANA")
    page.fill("#signin-password", "not the password")
    page.click("#signin-button")
    page.wait_for_function("document.getElementById('account-error').textContent.length > 0")
    assert page.text_content("#account-error") == "wrong username or password"
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-button")
    page.wait_for_selector("#signed-in:not([hidden])")
    screenshot(page, "account-page")

    page.goto(server.url + "/")
    page.wait_for_function("document.getElementById('account-link').textContent.startsWith('Account')")
    assert page.text_content("#account-link") == f"Account: {NAME}"
    assert page.locator("header img").count() == 0  # the name is text, not markup

    made = server.create("venture", ["human", "human"])
    seat_link = server.url + made["seats"]["0"]
    page.goto(seat_link)
    page.wait_for_selector("#keep-seat:not([hidden])")
    page.click("#keep-seat-button")
    page.wait_for_function("document.getElementById('keep-seat-text').textContent.includes('Kept')")
    assert page.text_content("#keep-seat-text") == "Kept in your account (ana)."

    page.goto(server.url + "/account")
    page.wait_for_selector("#me-seats li a")
    assert "venture, seat 1" in page.text_content("#me-seats")
    page.click("summary:has-text('Change my password')")
    page.fill("#password-current", PASSWORD)
    page.fill("#password-new", "a brand new password")
    page.click("#password-form button")
    page.wait_for_function("document.getElementById('notice').textContent.includes('new password is set')")
    page.click("summary:has-text('Delete my account')")
    page.fill("#delete-password", "a brand new password")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-button")
    page.wait_for_selector("#signed-out:not([hidden])")
    status = server.get(f"/api/tables/{made['table']}/status")
    assert status["seats"][0]["name"] == "deleted player"
    assert errors == []
    context.close()


@needs_chromium
@pytest.mark.slow
def test_no_keep_button_without_an_account_or_for_a_spectator(browser: Any, server: LiveServer) -> None:
    made = server.create("venture", ["human", "human"])
    page = browser.new_page()
    page.goto(server.url + made["seats"]["0"])
    page.wait_for_selector("#banner:not(:empty)")
    page.wait_for_timeout(500)
    assert page.locator("#keep-seat").is_hidden()
