"""Web Push in Chromium (issue 32): ticking "Notify this browser" on the account page registers the
service worker (/sw.js, scope /) and asks for the permission then, never before. Headless Chromium
here refuses ``pushManager.subscribe`` ("Registration failed - permission denied": no push service
reachable from this machine, and Playwright cannot grant the push permission), so the page says so,
and the test then stores a synthetic subscription through the page's own session and CSRF token
(what the page sends on success), which the server keeps."""

from __future__ import annotations

import base64
import os
from typing import Any

import pytest

from .accounts_helpers import PASSWORD
from .browsing import needs_chromium, register_on_page
from .conftest import database_sql
from .live_server import LiveServer


@needs_chromium
@pytest.mark.slow
def test_opting_in_registers_the_service_worker_and_a_subscription_is_stored(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    register_on_page(page, server.url, "ana", PASSWORD)
    assert page.evaluate("Notification.permission") == "default"  # not asked on load
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r)") is False
    context.grant_permissions(["notifications"], origin=server.url)
    page.check("#notify-push")
    script = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)")
    assert script == server.url + "/sw.js"
    page.wait_for_function(
        "document.getElementById('account-error').textContent.length > 0"
        " || document.getElementById('notify-push-state').textContent.includes('is notified')"
    )
    subscribed_for_real = "is notified" in (page.text_content("#notify-push-state") or "")
    if not subscribed_for_real:  # offline: Chromium's push service is out of reach
        assert (page.text_content("#account-error") or "").startswith("Web Push:")
        key = base64.urlsafe_b64encode(b"\x04" + os.urandom(64)).rstrip(b"=").decode()
        auth = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()
        status = page.evaluate(
            """([key, auth]) => fetch('/api/me/push', {method: 'POST', credentials: 'same-origin',
                headers: {'content-type': 'application/json', 'x-csrf-token': csrf},
                body: JSON.stringify({endpoint: 'https://push.example.org/s/1', keys: {p256dh: key, auth}})
            }).then(r => r.status)""",
            [key, auth],
        )
        assert status == 201
    assert database_sql(server.db, "SELECT count(*) FROM push_subscriptions") == [(1,)]
    assert errors == []
