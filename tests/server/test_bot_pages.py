"""Server bot accounts in Chromium (issue 36): a bot made on the account page, its token shown once, the
front page offering it as a seat while its stream is open, and revoked from the account page."""

from __future__ import annotations

from typing import Any

import pytest

from .accounts_helpers import PASSWORD
from .bot_api import Stream, wait_online
from .browsing import needs_chromium, register_on_page
from .live_server import LiveServer


@needs_chromium
@pytest.mark.slow
def test_a_bot_made_on_the_account_page_is_offered_as_a_seat_while_online(
    browser: Any, server: LiveServer
) -> None:
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    register_on_page(page, server.url, "ana", PASSWORD)
    page.fill("#bot-name", "anabot")
    page.click("#bot-button")
    page.wait_for_selector("#bot-token:not([hidden])")
    token = page.text_content("#bot-token-text") or ""
    assert token.startswith("pbt_")
    page.wait_for_function("document.getElementById('me-bots').textContent.includes('anabot (offline)')")

    stream = Stream(server, token)
    try:
        wait_online(server, "anabot")
        page.goto(server.url + "/")
        page.wait_for_selector("#seat-1 option[value='account:anabot']", state="attached")
        page.goto(server.url + "/account")
        page.wait_for_function("document.getElementById('me-bots').textContent.includes('anabot (online)')")
        page.click("#me-bots button")
        page.wait_for_function("document.getElementById('me-bots').textContent.includes('anabot (revoked)')")
        assert stream.next("error", timeout=15)["type"] == "error"  # its stream stops
        wait_online(server, "anabot", online=False)
    finally:
        stream.close()
    assert errors == []
