"""Screenshots of the page for the README, from a real server.

    python3 Tests/browser/screenshots.py DIR

with CATALOGUE_SERVE or CATALOGUE_URL set (see catalogue_server.py) writes screenshot.png (a
search with highlights, sections and the index), screenshot-dark.png and screenshot-phone.png.
"""

import struct
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from catalogue_server import running_server
from page_helpers import PHONE, launch, open_page


def take_screenshots(browser, base_url, out_dir):
    """Writes screenshot.png (a search with highlights, sections and the index), and the same
    in dark mode and at phone width. Returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    shots = [
        ("screenshot.png", {"viewport": {"width": 1000, "height": 720}, "color_scheme": "light"}),
        ("screenshot-dark.png", {"viewport": {"width": 1000, "height": 720}, "color_scheme": "dark"}),
        ("screenshot-phone.png", {"viewport": PHONE, "color_scheme": "light", "device_scale_factor": 2,
                                  "is_mobile": True, "has_touch": True}),
    ]
    paths = []
    for name, options in shots:
        context = browser.new_context(base_url=base_url, **options)
        page = context.new_page()
        open_page(page, "?entity=countries&q=land&scope=name&match=contains")
        page.locator("#list").focus()
        for _ in range(3):
            page.keyboard.press("ArrowDown")
        page.wait_for_function("() => new URL(location.href).searchParams.has('selected')")
        page.wait_for_timeout(200)
        path = out_dir / name
        page.screenshot(path=str(path))
        context.close()
        paths.append(path)
    return paths


def png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: screenshots.py DIR")
    with running_server() as running, sync_playwright() as playwright:
        chromium = launch(playwright)
        for written in take_screenshots(chromium, running.url, sys.argv[1]):
            print(written)
        chromium.close()


if __name__ == "__main__":
    main()
