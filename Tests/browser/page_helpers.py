"""What the page tests share: the browser, the page's landmarks, waiting for it to settle."""

import json
import os
import re
import secrets
import urllib.parse

from playwright.sync_api import Page, expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
DESKTOP = {"width": 1024, "height": 768}
PHONE = {"width": 360, "height": 740}


def launch(playwright):
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args)


TOP_ROW_JS = """() => {
  const list = document.getElementById('list').getBoundingClientRect();
  const header = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--header-height'));
  const hit = document.elementFromPoint(list.left + list.width / 2, list.top + header + 4);
  const row = hit && hit.closest('.row');
  if (!row) return null;
  const name = row.querySelector('.name');
  return {section: row.dataset.section, name: name ? name.textContent : null};
}"""


def open_page(page: Page, query=""):
    page.goto("/" + query)
    wait_idle(page)


def wait_idle(page: Page, q=None):
    """Waits until the list shows text `q` (if given) and nothing is loading."""
    if q is not None:
        expect(page.locator("#list")).to_have_attribute("data-query", q)
    expect(page.locator("#app")).to_have_attribute("data-busy", "false")


def type_text(page: Page, text):
    """Types into the search field one key at a time, as a person does."""
    page.locator("#q").focus()
    page.keyboard.type(text, delay=30)
    wait_idle(page, text.strip())


def row(page: Page, name):
    return page.locator(".row").filter(has=page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$")))


def top_row(page: Page):
    return page.evaluate(TOP_ROW_JS)


def wait_top_section(page: Page, title):
    """Waits until section `title` is at the top: pinned, and the first row on screen is its own."""
    page.wait_for_function(
        f"""() => {{
          const top = ({TOP_ROW_JS})();
          return document.getElementById('pinned').dataset.section === {json.dumps(title)}
              && top !== null && top.section === {json.dumps(title)} && top.name !== null;
        }}"""
    )


def url_state(page: Page):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def scope_button(page: Page, title):
    return page.locator("#scopes [role=radio]").filter(has=page.locator(".scope-title", has_text=re.compile(f"^{title}$")))


def index_entry(page: Page, title):
    return page.locator(f'#index button[data-title="{title}"]')


def luminance(css_color):
    red, green, blue = (int(part) / 255 for part in re.findall(r"[\d.]+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def unique(prefix):
    return f"{prefix} {secrets.token_hex(4)}"
