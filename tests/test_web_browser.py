"""The web page in a real browser (the system's headless Chromium, docs/WEB.md): enter a hand
by clicking cards and get advice with its chart, play a deal to the end against the bots, and
see a report's chart. Without Chromium these tests skip, or fail when ``CI`` is set."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.cli import main
from whist_sim.web import browser
from whist_sim.web.app import create_app
from whist_sim.web.server import LocalServer

ROOT = Path(__file__).resolve().parent.parent
HAND = ["AS", "KS", "QS", "2S", "KH", "3H", "QD", "JD", "5D", "4D", "8C", "7C", "2C"]


@pytest.fixture(scope="module")
def url():
    if browser.chromium() is None:
        why = "no system chromium and chromedriver (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(why + ": CI must run the browser tests")
        pytest.skip(why)
    app = create_app(max_deals=1000, reports={"results": ROOT / "results"}, workers=2)
    with LocalServer(app) as base:
        yield base


@pytest.fixture(scope="module")
def driver(url):
    with browser.open_browser() as d:
        yield d


def test_enter_a_hand_and_get_advice(url, driver):
    from selenium.webdriver.common.by import By

    svg = browser.ask_advice(driver, url, HAND, trump="S", deals=150, declarer=3, bids="6")
    assert driver.find_element(By.ID, "hand").get_attribute("value") == "AKQ2.K3.QJ54.872"
    head = driver.find_element(By.ID, "headline").text
    assert head.startswith("Recommended bid: ")
    rows = driver.find_elements(By.CSS_SELECTOR, "#bidtable tr")
    points = svg.find_elements(By.CSS_SELECTOR, "circle.bidpoint")
    assert len(points) == len(rows) - 1 == 14  # bids 0..13, the header row
    # the page shows what the API answers
    body = json.dumps({"hand": "AKQ2.K3.QJ54.872", "trump": "S", "declarer": 3, "bids": "6",
                       "deals": 150, "play": "heuristic", "seed": 0,
                       "bid_policy": "heuristic"}).encode()
    req = urllib.request.Request(url + "/api/advise", data=body,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        want = json.loads(r.read())
    assert head.startswith(f"Recommended bid: {want['recommended']} ")
    assert "play model: every seat plays heuristic" in driver.find_element(
        By.ID, "assumptions").text
    # a malformed hand: the message on the page, no result
    box = driver.find_element(By.ID, "hand")
    box.clear()
    box.send_keys("AKQ2.K3.QJ54")
    driver.find_element(By.ID, "go").click()
    err = browser.wait_for(driver, "#error", 30)
    assert "four suits" in err.text and "Traceback" not in err.text


def test_play_a_deal_to_the_end(url, driver, tmp_path):
    from selenium.webdriver.common.by import By

    out = browser.play_deal(driver, url, seat=0, seed=2)
    assert out["refused"] and "refused" in out["refused"]
    status = driver.find_element(By.ID, "status").text
    assert "Deal over" in status or "thrown in" in status
    totals = driver.find_element(By.ID, "totaltable").text
    assert "total" in totals
    path = tmp_path / "deal.json"
    with urllib.request.urlopen(out["record_url"], timeout=30) as r:
        path.write_bytes(r.read())
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output


def test_see_a_chart(url, driver):
    from selenium.webdriver.common.by import By

    img = browser.open_chart(driver, url, "results/default/report.md")
    assert img.get_attribute("src").startswith(url + "/files/results/default/")
    assert driver.find_elements(By.CSS_SELECTOR, ".report table")
    assert "default" in driver.find_element(By.ID, "list").text
