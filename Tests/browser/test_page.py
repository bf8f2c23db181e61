"""The catalogue page (`catalogue serve`, issue 11) in a real browser.

Debian's Chromium, driven headless by Playwright for Python. The browser is the system one
(`executable_path`); `playwright install` is never needed. The server under test is either

- started by the tests from CATALOGUE_SERVE, a command with placeholders
  `{port}`, `{db}`, `{token_file}` and `{tmp}` filled in here, e.g.
  CATALOGUE_SERVE='.build/debug/catalogue serve --db {db} --port {port} --token-file {token_file}'
  (the token file is written with a fresh token before the server starts), or
- already running at CATALOGUE_URL, with its import token in CATALOGUE_TOKEN (or the file
  CATALOGUE_TOKEN_FILE).

The database must hold the seed data (a fresh --db is seeded on first use). Rows that earlier
runs imported do no harm: imports use names unique to the run, and counts come from the API.

The scenarios of issue 11 are here; test_page_details.py has the rest of the page's behaviour.
Screenshots for the README: screenshots.py.
"""

import re
import time
import urllib.error
import urllib.parse

import pytest
from playwright.sync_api import expect

from page_helpers import (
    PHONE, index_entry, luminance, open_page, row, scope_button, top_row, type_text, unique, url_state, wait_idle,
    wait_top_section,
)
from screenshots import png_size, take_screenshots


def test_bog_then_capital_scope_shows_colombia_with_bog_highlighted(page):
    open_page(page)
    type_text(page, "bog")
    capital = scope_button(page, "Capital")
    expect(capital.locator(".count")).to_have_text("1")
    capital.click()
    expect(page.locator("#list")).to_have_attribute("data-scope", "capital")
    wait_idle(page, "bog")
    colombia = row(page, "Colombia")
    expect(colombia).to_be_visible()
    expect(colombia.locator(".subtitle mark")).to_have_text("Bog")
    expect(colombia.locator(".subtitle")).to_have_text("Bogotá")
    expect(page.locator(".row")).to_have_count(1)
    expect(page.locator("#status")).to_have_text("1 item found")
    expect(capital).to_have_attribute("aria-checked", "true")
    assert url_state(page) == {"entity": "countries", "q": "bog", "scope": "capital", "match": "prefix"}


def test_stale_responses_are_dropped(page, server):
    co = server.get("/api/countries?q=co&limit=1")
    c = server.get("/api/countries?q=c&limit=1")
    assert c["total"] != co["total"]
    found = f"{co['total']} items found"
    held = []

    def hold_first_keystroke(route):
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(route.request.url).query))
        if query.get("q") == "c":
            held.append(route)  # answered only after "co" has been shown
        else:
            route.continue_()

    open_page(page)
    page.route(re.compile(r"/api/countries/(sections|scopes)"), hold_first_keystroke)
    page.locator("#q").focus()
    page.keyboard.type("c")
    deadline = time.monotonic() + 5
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the first keystroke made no request"
    page.keyboard.type("o")
    wait_idle(page, "co")
    expect(page.locator("#status")).to_have_text(found)
    name_count = scope_button(page, "Name").locator(".count")
    expect(name_count).to_have_text(str(co["total"]))

    for route in held:  # the answers for "c" arrive last
        try:
            route.continue_()
        except Exception:
            pass  # the page had cancelled that request: as good as dropped
    page.wait_for_timeout(700)
    expect(page.locator("#list")).to_have_attribute("data-query", "co")
    expect(page.locator("#status")).to_have_text(found)
    expect(name_count).to_have_text(str(co["total"]))
    expect(row(page, "Colombia")).to_be_visible()
    expect(row(page, "Cabo Verde")).to_have_count(0)


def test_index_click_jumps_to_the_section(page, server):
    everything = server.get("/api/countries?limit=1")
    open_page(page)
    expect(index_entry(page, "A")).to_have_attribute("aria-current", "true")
    type_text(page, "bog")
    page.locator("#clear").click()
    wait_idle(page, "")
    expect(page.locator("#status")).to_have_text(re.compile(rf"^{everything['total']:,} countries in \d+ sections$"))
    index_entry(page, "S").click()
    wait_top_section(page, "S")
    assert top_row(page)["name"].startswith("S")
    expect(index_entry(page, "S")).to_have_attribute("aria-current", "true")
    # X has no section: it jumps to the next one (Y), as far as the list scrolls.
    index_entry(page, "X").click()
    expect(row(page, "Yemen")).to_be_in_viewport()
    expect(index_entry(page, "S")).not_to_have_attribute("aria-current", "true")
    # The magnifier goes back to the top.
    page.locator("#index .index-search").click()
    wait_top_section(page, "A")
    assert top_row(page)["name"] == everything["items"][0]["name"]


def test_index_drag_with_mouse_passes_through_sections(page):
    open_page(page)
    start = index_entry(page, "C").bounding_box()
    end = index_entry(page, "M").bounding_box()
    x = start["x"] + start["width"] / 2
    page.mouse.move(x, start["y"] + start["height"] / 2)
    page.mouse.down()
    seen = []
    steps = 10
    for step in range(1, steps + 1):
        y = start["y"] + start["height"] / 2 + (end["y"] - start["y"]) * step / steps
        page.mouse.move(x, y)
        seen.append(page.locator("#pinned").get_attribute("data-section"))
    page.mouse.up()
    wait_top_section(page, "M")
    passed = [title for title in dict.fromkeys(seen)]
    assert len(passed) >= 4, f"the drag showed only {passed}"
    assert passed == sorted(passed), f"sections out of order while dragging down: {passed}"


def test_index_drag_with_touch(new_page):
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    open_page(page)
    start = index_entry(page, "B").bounding_box()
    end = index_entry(page, "T").bounding_box()
    x = start["x"] + start["width"] / 2
    session = page.context.new_cdp_session(page)

    def touch(kind, y):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start["y"] + start["height"] / 2)
    steps = 8
    for step in range(1, steps + 1):
        touch("touchMove", start["y"] + start["height"] / 2 + (end["y"] - start["y"]) * step / steps)
    touch("touchEnd", 0)
    wait_top_section(page, "T")
    # The drag moved the list through the index, not the page.
    assert page.evaluate("document.scrollingElement.scrollTop") == 0


def test_keyboard_navigation(page, server):
    everything = server.get("/api/countries?limit=1")
    open_page(page)
    page.locator("#list").focus()
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("ca", delay=30)
    wait_idle(page, "ca")
    expect(page.locator("#q")).to_have_value("ca")  # "/" was not typed into the field
    rows = page.locator(".row")
    page.keyboard.press("ArrowDown")
    expect(rows.nth(0)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowDown")
    expect(rows.nth(1)).to_have_attribute("aria-selected", "true")
    expect(rows.nth(0)).to_have_attribute("aria-selected", "false")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    second = rows.nth(1)
    expect(second).to_have_attribute("aria-selected", "true")
    second_id = second.get_attribute("id")
    second_name = second.locator(".name").text_content()
    expect(page.locator("#q")).to_have_attribute("aria-activedescendant", second_id)
    expect(page.locator("#position")).to_have_text(re.compile(r"^2 of \d+$"))

    page.keyboard.press("Enter")
    detail = page.locator("#detail")
    expect(detail).to_be_visible()
    expect(page.locator("#detail-title")).to_contain_text(second_name)
    page.keyboard.press("Escape")
    expect(detail).to_be_hidden()
    expect(page.locator("#q")).to_be_focused()

    # Esc ends the search: back to every country, on the same record (as the terminal UI does).
    page.keyboard.press("Escape")
    wait_idle(page, "")
    expect(page.locator("#q")).to_have_value("")
    selected = page.locator('.row[aria-selected="true"]')
    expect(selected.locator(".name")).to_have_text(second_name)
    expect(selected).to_be_in_viewport()
    assert "q" not in url_state(page)

    # PageDown moves a page; Home and End go to the ends.
    page.locator("#list").focus()
    total = f"{everything['total']:,}"
    page.keyboard.press("Home")
    expect(selected.locator(".name")).to_have_text(everything["items"][0]["name"])
    page.keyboard.press("PageDown")
    expect(page.locator("#position")).to_have_text(re.compile(rf"^([3-9]|\d\d) of {total}$"))
    page.keyboard.press("End")
    expect(page.locator("#position")).to_have_text(f"{total} of {total}")
    expect(selected).to_be_in_viewport()


def test_reload_restores_text_scope_mode_and_selection(page):
    open_page(page)
    type_text(page, "co")
    page.locator("#match").select_option("contains")
    expect(page.locator("#list")).to_have_attribute("data-match", "contains")
    wait_idle(page, "co")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    selected = page.locator('.row[aria-selected="true"]')
    name = selected.locator(".name").text_content()
    page.wait_for_function("() => new URL(location.href).searchParams.has('selected')")
    state = url_state(page)
    assert state["q"] == "co" and state["match"] == "contains" and state["scope"] == "name"

    page.reload()
    wait_idle(page, "co")
    expect(page.locator("#q")).to_have_value("co")
    expect(page.locator("#match")).to_have_value("contains")
    expect(scope_button(page, "Name")).to_have_attribute("aria-checked", "true")
    expect(selected).to_have_count(1)
    expect(selected.locator(".name")).to_have_text(name)
    expect(selected).to_be_in_viewport()
    assert url_state(page) == state


def test_refused_change_stream_is_asked_for_again(page):
    # The server answers 503 when too many change streams are open; EventSource gives up on
    # such an answer, so the page asks again after the Retry-After and goes live.
    refused = []

    def refuse_first(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "5", "Content-Type": "application/json"},
                          body='{"error": "too many change streams are open (at most 1); try again later"}')
        else:
            route.continue_()

    page.route("**/api/*/changes", refuse_first)
    open_page(page, "?entity=countries")
    expect(page.locator("#app")).to_have_attribute("data-live", "reconnecting")
    assert refused
    expect(page.locator("#app")).to_have_attribute("data-live", "open", timeout=15_000)
    assert len(refused) == 1


def test_imported_row_appears_without_reload(page, server):
    name = unique("Zeppelin")
    open_page(page, "?" + urllib.parse.urlencode({"entity": "products", "q": name}))
    expect(page.locator("#empty")).to_be_visible()
    expect(page.locator("#app")).to_have_attribute("data-live", "open")
    page.evaluate("window.__sameDocument = true")

    status, result = server.post("/api/products/import?format=csv", f"name,type,year,price\n{name},device,1997,9.5\n",
                                 token=server.token)
    assert status == 200, result
    assert result["added"] == 1 and result["skipped"] == 0

    found = row(page, name)
    expect(found).to_be_visible(timeout=10_000)
    expect(found.locator(".name mark")).to_have_text(name)
    expect(page.locator("#empty")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("1 item found")
    assert page.evaluate("window.__sameDocument") is True  # no reload happened

    # Browsing: the row sits in its own section, Z, reached through the index.
    page.keyboard.press("Escape")
    wait_idle(page, "")
    expect(index_entry(page, "Z")).not_to_have_class(re.compile("absent"))
    index_entry(page, "Z").click()
    expect(row(page, name)).to_be_in_viewport()
    expect(row(page, name)).to_have_attribute("data-section", "Z")


@pytest.mark.parametrize("query", ["", "?entity=products", "?q=land&match=contains"])
def test_phone_width_has_no_horizontal_scroll(new_page, query):
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    open_page(page, query)
    widths = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
    assert widths[0] <= PHONE["width"] and widths[1] <= PHONE["width"], widths
    for selector in ["#q", "#scopes", "#match", "#list", "#index", ".row >> nth=0"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)
    expect(page.locator("#index")).to_be_visible()
    # The index fits the height: every entry at least 9 px tall, the last one on screen.
    heights = page.locator("#index button").evaluate_all("es => es.map(e => e.getBoundingClientRect().height)")
    assert min(heights) >= 9, heights
    expect(index_entry(page, "#")).to_be_in_viewport()


def test_dark_mode_renders_dark(new_page):
    colors = {}
    for scheme in ["light", "dark"]:
        page = new_page(color_scheme=scheme)
        open_page(page, "?q=co")
        colors[scheme] = page.evaluate(
            """() => ({
              body: getComputedStyle(document.body).backgroundColor,
              row: getComputedStyle(document.querySelector('.row')).backgroundColor,
              text: getComputedStyle(document.querySelector('.row .name')).color,
              header: getComputedStyle(document.getElementById('pinned')).backgroundColor,
            })"""
        )
    light, dark = colors["light"], colors["dark"]
    assert luminance(light["body"]) > 0.9 and luminance(light["text"]) < 0.1, light
    assert luminance(dark["body"]) < 0.1 and luminance(dark["row"]) < 0.1, dark
    assert luminance(dark["text"]) > 0.9, dark
    assert luminance(dark["header"]) < 0.2, dark


def test_screenshots_are_written(browser, server, tmp_path):
    paths = take_screenshots(browser, server.url, tmp_path)
    assert [path.name for path in paths] == ["screenshot.png", "screenshot-dark.png", "screenshot-phone.png"]
    assert png_size(paths[0]) == (1000, 720)
    assert png_size(paths[2]) == (720, 1480)
    for path in paths:
        assert path.stat().st_size > 20_000, f"{path} looks empty"
