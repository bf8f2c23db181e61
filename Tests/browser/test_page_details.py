"""The page's behaviour beyond issue 11's scenarios (those are in test_page.py): aliases,
match modes, the empty state, the products catalogue, errors, letter keys, the detail view,
shared links, live updates keeping the selection, and lazy loading in batches.
"""

import json
import re
import urllib.error
import urllib.parse

import pytest
from playwright.sync_api import expect

from page_helpers import (
    index_entry, open_page, row, scope_button, top_row, type_text, unique, url_state, wait_idle, wait_top_section,
)


def test_country_found_by_alias_shows_the_alias_dimmed_after_the_name(page):
    open_page(page)
    type_text(page, "ivory")
    ivory = row(page, "Côte d'Ivoire")
    expect(ivory).to_be_visible()
    expect(ivory.locator(".alias")).to_have_text(" — Ivory Coast")
    expect(ivory.locator(".alias mark")).to_have_text("Ivory")
    assert ivory.locator(".alias").evaluate("e => getComputedStyle(e).color") != ivory.locator(".name").evaluate(
        "e => getComputedStyle(e).color"
    )


def test_a_phones_apostrophe_finds_the_typewriter_one(page):
    # iOS types ’ (U+2019) for ' with Smart Punctuation on; the catalogue has "Côte d'Ivoire".
    open_page(page)
    type_text(page, "cote d\u2019iv")
    ivory = row(page, "Côte d'Ivoire")
    expect(ivory).to_be_visible()
    expect(ivory.locator(".name mark")).to_have_text("Côte d'Iv")
    expect(page.locator(".row")).to_have_count(1)


def test_match_modes_change_the_results(page):
    open_page(page)
    type_text(page, "gu")
    expect(page.locator("#status")).to_have_text(re.compile(r"^\d+ items found$"))
    expect(row(page, "Paraguay")).to_have_count(0)
    prefix_total = int(page.locator("#list").get_attribute("data-total"))
    page.locator("#match").select_option("contains")
    expect(page.locator("#list")).to_have_attribute("data-match", "contains")
    wait_idle(page, "gu")
    assert int(page.locator("#list").get_attribute("data-total")) > prefix_total
    index_entry(page, "P").click()
    expect(row(page, "Paraguay").locator(".name mark")).to_have_text("gu")
    page.locator("#match").select_option("words")
    expect(page.locator("#list")).to_have_attribute("data-match", "words")
    wait_idle(page, "gu")
    expect(row(page, "Papua New Guinea").locator(".name mark")).to_have_text("Gu")
    # Ranked words: one untitled section, so no section headers and no index.
    expect(page.locator("#index")).to_be_hidden()
    expect(page.locator("#pinned")).to_be_hidden()


def test_fuzzy_forgives_typos_and_marks_what_matched(page):
    open_page(page, "?q=Columbia")
    expect(page.locator("#status")).to_have_text("No items found")
    page.locator("#match").select_option("fuzzy")
    expect(page.locator("#list")).to_have_attribute("data-match", "fuzzy")
    wait_idle(page, "Columbia")
    expect(page.locator("#status")).to_have_text("1 item found")
    expect(row(page, "Colombia").locator(".name mark")).to_have_text("Colombia")
    # Ranked like words: one untitled section, no index; the URL keeps the mode.
    expect(page.locator("#index")).to_be_hidden()
    assert "match=fuzzy" in page.url


def test_no_items_found(page):
    open_page(page, "?q=zzzqqq")
    expect(page.locator("#empty")).to_be_visible()
    expect(page.locator("#empty .empty-title")).to_have_text("No items found")
    expect(page.locator("#status")).to_have_text("No items found")
    expect(page.locator(".row")).to_have_count(0)
    # Nothing is close to this text either: no "Did you mean".
    page.wait_for_load_state("networkidle")
    expect(page.locator("#suggestions")).to_be_hidden()


def test_no_items_found_suggests_what_was_meant(page):
    open_page(page, "?q=phillipines")
    expect(page.locator("#empty")).to_be_visible()
    suggestions = page.locator("#suggestions")
    expect(suggestions).to_have_text("Did you mean: Philippines?")
    suggestions.get_by_role("button", name="Philippines").click()
    wait_idle(page, "Philippines")
    expect(row(page, "Philippines")).to_be_visible()
    expect(page.locator("#empty")).to_be_hidden()
    expect(page.locator("#q")).to_have_value("Philippines")
    expect(page.locator("#q")).to_be_focused()
    # In the capital scope, capitals are suggested; a text found again hides the line.
    open_page(page, "?q=bogata&scope=capital")
    expect(page.locator("#suggestions")).to_have_text("Did you mean: Bogotá?")
    page.locator("#q").fill("bog")
    wait_idle(page, "bog")
    expect(page.locator("#empty")).to_be_hidden()


def test_no_items_found_names_the_match_mode_that_finds_it(page):
    # No country name starts with salvador; a word of El Salvador does.
    open_page(page, "?q=salvador")
    expect(page.locator("#empty")).to_be_visible()
    found = page.locator("#suggestions")
    expect(found).to_have_text("Match Words to find 1 country")
    found.get_by_role("button", name="Words").click()
    expect(page.locator("#list")).to_have_attribute("data-match", "words")
    wait_idle(page, "salvador")
    expect(row(page, "El Salvador")).to_be_visible()
    expect(page.locator("#empty")).to_be_hidden()
    expect(page.locator("#match")).to_have_value("words")
    expect(page.locator("#q")).to_be_focused()
    assert url_state(page)["match"] == "words"
    # Inside a word: contains, also after words; products say "products".
    open_page(page, "?q=lvador&match=words")
    expect(page.locator("#suggestions")).to_have_text("Match Contains to find 1 country")
    open_page(page, "?entity=products&q=mini")
    expect(page.locator("#suggestions")).to_have_text("Match Words to find 2 products")
    # Found by no other mode: the suggestions, as before.
    open_page(page, "?q=salvadr")
    expect(page.locator("#suggestions")).to_have_text("Did you mean: El Salvador?")


def test_entity_switch_shows_products_with_type_scopes(page):
    open_page(page)
    page.get_by_role("radio", name="Products").click()
    expect(page.locator("#list")).to_have_attribute("data-entity", "products")
    wait_idle(page, "")
    expect(page.locator("#status")).to_have_text(re.compile(r"^[\d,]+ products in \d+ sections$"))
    expect(scope_button(page, "All")).to_have_attribute("aria-checked", "true")
    expect(scope_button(page, "Device")).to_be_visible()
    # No product starts with D: its index entry is dimmed and jumps to the next section, E.
    expect(index_entry(page, "D")).to_have_class(re.compile("absent"))
    index_entry(page, "D").click()
    wait_top_section(page, "E")
    type_text(page, "ipad")
    scope_button(page, "Device").click()
    expect(page.locator("#list")).to_have_attribute("data-scope", "device")
    wait_idle(page, "ipad")
    expect(row(page, "iPad")).to_be_visible()
    expect(row(page, "iPad mini")).to_be_visible()
    expect(row(page, "iPad").locator(".name mark")).to_have_text("iPad")
    assert url_state(page)["entity"] == "products"
    # Switching the catalogue made a history entry: Back returns to the countries.
    page.go_back()
    expect(page.locator("#list")).to_have_attribute("data-entity", "countries")
    wait_idle(page, "")
    expect(page.get_by_role("radio", name="Countries")).to_have_attribute("aria-checked", "true")
    expect(page.locator("#q")).to_have_value("")
    expect(scope_button(page, "Name")).to_have_attribute("aria-checked", "true")


def test_text_past_256_characters_adds_nothing_as_in_the_terminal(page):
    # The server takes at most 256 Unicode scalars (ServerOptions.maximumTextLength); the page
    # keeps the first 256 of a paste, as the terminal's search field does, and searches them.
    open_page(page)
    longest = "é" * 255 + "🇨🇴"[0]  # 256 scalars, one of them outside the BMP (two UTF-16 units)
    page.locator("#q").fill(longest + "xyz")
    wait_idle(page, longest)
    expect(page.locator("#q")).to_have_value(longest)
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("No items found")
    assert url_state(page)["q"] == longest
    # A shared link with a longer text is cut the same way.
    open_page(page, "?q=" + urllib.parse.quote("co" + "x" * 300))
    wait_idle(page, "co" + "x" * 254)
    expect(page.locator("#q")).to_have_value("co" + "x" * 254)
    expect(page.locator("#error")).to_be_hidden()


def test_a_server_error_is_shown_and_keeps_the_results(page):
    open_page(page, "?q=co")
    total = page.locator("#list").get_attribute("data-total")
    failing = re.compile(r"/api/countries(/sections)?\?.*q=cox")
    page.route(failing, lambda route: route.fulfill(
        status=400, content_type="application/json",
        body=json.dumps({"error": "the search text is refused"})))
    page.locator("#q").fill("cox")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_have_text("the search text is refused")
    expect(page.locator("#list")).to_have_attribute("data-total", total)
    expect(page.locator(".row").first).to_be_visible()
    page.unroute(failing)
    page.locator("#q").fill("bog")
    wait_idle(page, "bog")
    expect(error).to_be_hidden()


def test_letter_key_jumps_to_its_section_and_selects_its_first_row(page):
    open_page(page)
    page.locator("#list").focus()
    page.keyboard.press("m")
    wait_top_section(page, "M")
    selected = page.locator('.row[aria-selected="true"]')
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-section", "M")
    expect(selected.locator(".name")).to_have_text("Macao")


def test_detail_view_shows_every_field(page, server):
    expected = server.get("/api/countries/CI")
    open_page(page, "?q=ivory")
    row(page, "Côte d'Ivoire").click()
    detail = page.locator("#detail")
    expect(detail).to_be_visible()
    expect(page.locator("#detail-title")).to_contain_text("Côte d'Ivoire")
    expect(page.locator("#detail-subtitle")).to_have_text(expected["official_name"])
    fields = dict(
        zip(detail.locator("dt").all_text_contents(), detail.locator("dd").all_text_contents())
    )
    assert fields["Code"] == f"CI ({expected['iso3']}, {expected['numeric_code']})"
    assert fields["Capital"] == expected["capital"]
    assert fields["Population"] == f"{expected['population']:,}"
    assert fields["Area"] == f"{expected['area_km2']:,.0f} km²"
    assert fields["Currency"] == f"{expected['currency_name']} ({expected['currency_code']})"
    assert fields["Also known as"] == "; ".join(expected["aliases"])
    for label, key in [("Continent", "continent"), ("Region", "region"), ("Subregion", "subregion"),
                       ("Languages", "languages"), ("Internet domain", "tld"), ("Demonym", "demonym")]:
        assert fields[label] == expected[key], label
    assert fields["Neighbours"] == ", ".join(expected["neighbours"].split(","))
    assert fields["Calling code"].lstrip("+") == expected["calling_code"].lstrip("+")
    page.locator("#detail-close").click()
    expect(detail).to_be_hidden()


def test_shared_link_restores_a_product_selection_far_down_the_list(page, server):
    ipod = server.get("/api/products?q=iPod%20touch&limit=1")["items"][0]
    open_page(page, f"?entity=products&scope=all&match=prefix&selected={ipod['id']}")
    selected = page.locator('.row[aria-selected="true"]')
    expect(selected.locator(".name")).to_have_text("iPod touch")
    expect(selected).to_be_in_viewport()
    expect(page.get_by_role("radio", name="Products")).to_have_attribute("aria-checked", "true")
    page.keyboard.press("Enter")
    expect(page.locator("#detail-title")).to_have_text("iPod touch")


def test_unknown_scope_in_a_link_falls_back_to_the_default(page):
    open_page(page, "?entity=countries&scope=nonsense&q=bog")
    wait_idle(page, "bog")
    expect(page.locator("#list")).to_have_attribute("data-scope", "name")
    assert url_state(page)["scope"] == "name"


def unused_country_code(server):
    """A user-assigned ISO 3166 code (QM–QZ, XA–XZ) that the catalogue does not hold yet."""
    for code in [f"Q{letter}" for letter in "MNOPQRSTUVWXYZ"] + [f"X{letter}" for letter in "ABCDEFGHIJLMNOPQRSTUVWXYZ"]:
        try:
            server.get(f"/api/countries/{code}")
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return code
            raise
    pytest.fail("no unused test country code left in this database")


def test_import_keeps_the_selection_and_scroll_position(page, server):
    code = unused_country_code(server)
    open_page(page, "?entity=countries&selected=NO")
    selected = page.locator('.row[aria-selected="true"]')
    expect(selected.locator(".name")).to_have_text("Norway")
    expect(page.locator("#app")).to_have_attribute("data-live", "open")
    total = int(page.locator("#list").get_attribute("data-total"))
    position = page.locator("#position").text_content()
    before = top_row(page)
    # A country under A moves every row below it down by one.
    status, result = server.post(
        "/api/countries/import?format=json",
        json.dumps([{"code": code, "name": unique("Aaa Test Land"), "capital": "Testville"}]),
        token=server.token, content_type="application/json")
    assert status == 200 and result["added"] == 1, result
    expect(page.locator("#list")).to_have_attribute("data-total", str(total + 1), timeout=10_000)
    expect(page.locator("#position")).not_to_have_text(position)  # Norway is one further down
    expect(selected.locator(".name")).to_have_text("Norway")
    expect(selected).to_be_in_viewport()
    after = top_row(page)
    assert after["section"] == before["section"]


def test_rows_load_lazily_in_batches(page, server):
    prefix = unique("Lazy")
    rows = "".join(f"{prefix} {n:05d},device,2001,{n}\n" for n in range(3000))
    status, result = server.post("/api/products/import?format=csv", "name,type,year,price\n" + rows, token=server.token)
    assert status == 200 and result["added"] == 3000, result

    requested = []
    page.on("request", lambda request: requested.append(request.url) if "/sections/" in request.url else None)
    open_page(page, "?" + urllib.parse.urlencode({"entity": "products", "q": prefix}))
    expect(page.locator("#status")).to_have_text("3,000 items found")
    expect(row(page, f"{prefix} 00000")).to_be_visible()
    assert page.locator(".row").count() < 60, "far more rows in the document than the viewport needs"

    def rows_asked():
        total = 0
        for url in requested:
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
            assert int(query["limit"]) <= 50
            total += int(query["limit"])
        return total

    assert rows_asked() <= 100
    page.locator("#list").focus()
    page.keyboard.press("End")
    last = row(page, f"{prefix} 02999")
    expect(last).to_be_visible()
    expect(last).to_have_attribute("aria-selected", "true")
    expect(last).to_have_attribute("aria-posinset", "3000")
    assert rows_asked() <= 300, "jumping to the end loaded the rows in between"
