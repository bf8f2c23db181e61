"""Fixtures shared by the browser tests and the API tests."""

import pytest
from playwright.sync_api import sync_playwright

from catalogue_server import running_server
from page_helpers import DESKTOP, launch


@pytest.fixture(scope="session")
def server():
    try:
        with running_server() as running:
            yield running
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, server):
    """Opens pages in fresh contexts; fails the test on any uncaught script error."""
    contexts = []
    errors = []

    def make(viewport=DESKTOP, **options):
        context = browser.new_context(viewport=viewport, base_url=server.url, **options)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], f"script errors on the page: {errors}"


@pytest.fixture
def page(new_page):
    return new_page()
