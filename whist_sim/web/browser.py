"""Driving the pages in a real browser: the system's headless Chromium through Selenium (the
browser tests and ``scripts/web_screenshots.py``; docs/WEB.md).

Nothing is downloaded: the browser and its driver are the OS packages (``chromium``,
``chromium-driver``), found on ``PATH`` or at the usual places. :func:`chromium` says whether
they are there; :func:`open_browser` starts one with a fresh profile; :func:`ask_advice`,
:func:`play_deal` and :func:`open_chart` are the three journeys of the pages.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

#: flags that run Chromium headless in a container, with no network of its own and no profile
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage")


def chromium() -> tuple[str, str] | None:
    """``(browser, driver)`` paths of the system Chromium and its driver, or None."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        for b, d in (("/usr/bin/chromium", "/usr/bin/chromedriver"),
                     ("/usr/lib/chromium/chromium", "/usr/lib/chromium/chromedriver")):
            if shutil.which(b) and shutil.which(d):
                return b, d
        return None
    return browser, driver


def phone(driver: Any, width: int = 390, height: int = 844) -> None:
    """Make the page a phone's: a ``width`` x ``height`` CSS-pixel viewport (a window cannot be
    narrower than about 500 px), mobile layout and touch events (DevTools emulation)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True,
                                                                  "maxTouchPoints": 5})


def desktop(driver: Any) -> None:
    """Back to the window's own size (undo :func:`phone`)."""
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


@contextmanager
def open_browser(width: int = 1280, height: int = 1000):
    """A headless Chromium (Selenium ``WebDriver``) with a fresh profile, closed at the end."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = chromium()
    if found is None:
        raise RuntimeError("no chromium and chromedriver: apt-get install chromium "
                           "chromium-driver")
    browser, driver_path = found
    with tempfile.TemporaryDirectory(prefix="whist-web-browser-") as profile:
        opts = webdriver.ChromeOptions()
        opts.binary_location = browser
        for flag in CHROMIUM_FLAGS:
            opts.add_argument(flag)
        opts.add_argument(f"--user-data-dir={profile}")
        opts.add_argument(f"--window-size={width},{height}")
        driver = webdriver.Chrome(service=Service(driver_path), options=opts)
        try:
            yield driver
        finally:
            driver.quit()


def wait_for(driver: Any, css: str, timeout_s: float = 60.0, visible: bool = True) -> Any:
    """The first element matching ``css`` once it is there (and displayed)."""
    from selenium.webdriver.common.by import By

    end = time.monotonic() + timeout_s
    while True:
        found = [e for e in driver.find_elements(By.CSS_SELECTOR, css)
                 if not visible or e.is_displayed()]
        if found:
            return found[0]
        if time.monotonic() > end:
            raise TimeoutError(f"{css!r} did not appear within {timeout_s} s")
        time.sleep(0.05)


def ask_advice(driver: Any, url: str, cards: list[str], trump: str = "S", deals: int = 200,
               play: str = "heuristic", declarer: int | None = None, bids: str = "") -> Any:
    """On the advisor page: click ``cards`` (``"AS"``, ``"TH"``, ...), choose the deal, get the
    advice; returns the chart (the SVG element)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/advisor")
    wait_for(driver, "#play option")
    for c in cards:
        driver.find_element(By.CSS_SELECTOR, f'#picker button[data-card="{c}"]').click()
    Select(driver.find_element(By.ID, "trump")).select_by_value(trump)
    Select(driver.find_element(By.ID, "play")).select_by_value(play)
    if declarer is not None:
        driver.find_element(By.ID, "declarer").send_keys(str(declarer))
    if bids:
        driver.find_element(By.ID, "bids").send_keys(bids)
    box = driver.find_element(By.ID, "deals")
    box.clear()
    box.send_keys(str(deals))
    old = driver.find_elements(By.CSS_SELECTOR, "#chart svg")
    driver.find_element(By.ID, "go").click()
    end = time.monotonic() + 120
    while True:
        error = driver.find_element(By.ID, "error")
        if error.is_displayed():
            raise RuntimeError(f"the advisor page says: {error.text}")
        svg = driver.find_elements(By.CSS_SELECTOR, "#chart svg")
        if svg and svg != old and svg[0].is_displayed():
            return svg[0]
        if time.monotonic() > end:
            raise TimeoutError("no advice within 120 s")
        time.sleep(0.05)


def play_deal(driver: Any, url: str, seat: int = 0, seed: int = 0,
              spec: str = "heuristic/heuristic", try_illegal: bool = True,
              snapshot: Callable[[], None] | None = None, snapshot_trick: int = 5
              ) -> dict[str, Any]:
    """On the play page: deal, then play the person's seat to the end of the deal by clicking
    (a pass in the auction when it may, the first legal contract, the first legal card, the
    three last cards shown in a Frisch); once, a card that may not be played is clicked and
    must be refused (``try_illegal``). ``snapshot()`` is called once, the first time the person
    is to play a card after ``snapshot_trick`` tricks. Returns ``{"refused": text or None,
    "record_url": ...}``."""
    from selenium.webdriver.common.by import By

    driver.get(url + "/play")
    wait_for(driver, "#spec0")
    for box in driver.find_elements(By.CSS_SELECTOR, "#seatspecs input"):
        box.clear()
        box.send_keys(spec)
    for name, value in (("seat", seat), ("seed", seed)):
        box = driver.find_element(By.ID, name)
        box.clear()
        box.send_keys(str(value))
    driver.find_element(By.ID, "start").click()
    wait_for(driver, "#hand .card")
    refused = None
    for _ in range(200):
        if driver.find_element(By.ID, "record").is_displayed():
            break
        status = driver.find_element(By.ID, "status").text
        before = status + driver.find_element(By.ID, "history").text
        buttons = driver.find_elements(By.CSS_SELECTOR, "#choices button")
        legal = driver.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
        if buttons:
            passes = [b for b in buttons if b.text == "pass"]
            (passes or buttons)[0].click()
        elif driver.find_element(By.ID, "frischgo").is_displayed():
            for card in driver.find_elements(By.CSS_SELECTOR, "#hand .card")[-3:]:
                card.click()
            driver.find_element(By.ID, "frischgo").click()
        elif legal:
            if snapshot is not None and before.count("trick ") >= snapshot_trick:
                snapshot()
                snapshot = None
            dim = driver.find_elements(By.CSS_SELECTOR, "#hand .card:not(.legal)")
            if try_illegal and refused is None and dim:
                dim[0].click()
                refused = wait_for(driver, "#refused", 20).text
                continue
            legal[0].click()
        else:
            raise RuntimeError(f"nothing to do at the table: {status!r}")
        end = time.monotonic() + 60
        while (driver.find_element(By.ID, "status").text
               + driver.find_element(By.ID, "history").text) == before:
            if time.monotonic() > end:
                raise TimeoutError("the table did not answer a move")
            time.sleep(0.05)
    record_url = driver.find_element(By.ID, "record").get_attribute("href")
    return {"refused": refused, "record_url": record_url}


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


def open_chart(driver: Any, url: str, report: str = "results/default/report.md") -> Any:
    """On the charts page: open ``report`` (``ROOT/PATH``) and wait for its first chart to be
    loaded; returns the image element."""
    driver.get(f"{url}/charts#{report}")
    img = wait_for(driver, ".report img")
    end = time.monotonic() + 30
    while not driver.execute_script("return arguments[0].complete && "
                                    "arguments[0].naturalWidth > 0", img):
        if time.monotonic() > end:
            raise TimeoutError("the chart did not load")
        time.sleep(0.05)
    return img
