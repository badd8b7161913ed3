"""The web page in a real browser (the system's headless Chromium, docs/WEB.md): enter a hand
by clicking cards and get advice with its chart, play a deal to the end against the bots, and
see a report's chart. Without Chromium these tests skip, or fail when ``CI`` is set."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.interfaces.cli import main
from whist_sim.interfaces.web import browser
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.server import LocalServer

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


@pytest.fixture(autouse=True)
def back_to_the_desktop(request):
    """A test that makes the window a phone's leaves it a desktop window for the next one."""
    yield
    if "driver" in request.fixturenames:
        browser.desktop(request.getfixturevalue("driver"))


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


def test_leaving_the_advisor_cancels_its_advice(driver):
    """A long advice (1,000 deals of rollout play, several seconds) is cancelled by the server
    when its page is left, instead of running on for nobody. Its server allows that much work
    (``max_deals`` counts a deal of rollout play at its cost)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from whist_sim.interfaces.web.requests import play_cost

    app = create_app(max_deals=1000 * play_cost("rollout"), workers=2)
    with LocalServer(app) as url:
        browser.desktop(driver)
        driver.get(url + "/advisor")
        browser.wait_for(driver, "#play option")
        driver.find_element(By.ID, "hand").send_keys("AKQ2.K3.QJ54.872")
        Select(driver.find_element(By.ID, "trump")).select_by_value("S")
        Select(driver.find_element(By.ID, "play")).select_by_value("rollout")
        box = driver.find_element(By.ID, "deals")
        box.clear()
        box.send_keys("1000")
        driver.find_element(By.ID, "go").click()
        end = time.monotonic() + 30
        while not (job := driver.execute_script("return job && job.id")):
            refused = driver.find_element(By.ID, "error").get_attribute("textContent")
            assert time.monotonic() < end and not refused.strip(), refused
            time.sleep(0.05)
        driver.get(url + "/play")  # the page is left
        while (got := browser.fetch_json(f"{url}/api/jobs/{job}"))["state"] == "running":
            assert time.monotonic() < end + 60
            time.sleep(0.1)
        assert got["state"] == "cancelled" and got["done_deals"] < 1000


def replays(record_url: str, tmp_path: Path) -> None:
    """The finished deal's record, downloaded, passes ``whist-sim replay``."""
    path = tmp_path / "deal.json"
    with urllib.request.urlopen(record_url, timeout=30) as r:
        path.write_bytes(r.read())
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output


#: counts, in the page, how many cards the trick in the middle showed at each change and how
#: often a finished trick was shown with its winner marked
WATCH_TRICK = """
window.seen = {counts: [], done: 0};
new MutationObserver(() => {
  const trick = document.getElementById("trick");
  if (!trick) return;
  window.seen.counts.push(trick.querySelectorAll(".card").length);
  if (trick.classList.contains("done") && trick.querySelector(".slot.winner")) window.seen.done++;
}).observe(document.getElementById("felt"), {childList: true});
"""


def test_a_deal_by_taps_on_a_phone(url, driver, tmp_path):
    """390 x 844, touch: nothing wider than the screen (360 to 430 px), every control 44 px
    tall, the table, the hand and the choices on one screen; a double tap makes one move; the
    bots' cards come one by one and each finished trick shows its winner; a reload mid-deal
    resumes; every text in AA contrast; an illegal card is refused with the rule's reason."""
    from selenium.webdriver.common.by import By

    for width in (360, 430, 390):
        browser.phone(driver, width, 844)
        driver.get(url + "/play")
        browser.wait_for(driver, "#levels input")
        assert browser.overflow_x(driver) == 0, width
    assert browser.contrast_problems(driver) == []
    state = browser.open_table(driver, url, seat=1, seed=11, level="beginner")
    assert "table=" + state["id"] in driver.current_url
    assert not driver.find_element(By.ID, "setupbox").get_attribute("open")  # folded away
    assert "heuristic/heuristic" in driver.find_element(By.ID, "leveldetails").get_attribute(
        "textContent")
    assert browser.contrast_problems(driver) == []
    # a double tap on the first choice: one move
    kind, todo = browser.next_choice(driver)
    driver.execute_script("arguments[0].click(); arguments[0].click();", todo[0])
    browser.moved(driver, state["seq"])
    assert browser.table_state(driver)["seq"] == state["seq"] + 1
    # a move made elsewhere (another tab) first: the page's tap is refused politely, and the
    # page shows the table as it stands
    state = browser.table_state(driver)
    assert state["waiting"]
    kind, todo = browser.next_choice(driver)
    view = browser.fetch_json(f"{url}/api/play/{state['id']}")
    move = (todo[0].get_attribute("data-move") if kind in ("call", "contract") else
            " ".join(driver.find_element(By.CSS_SELECTOR, c).get_attribute("data-card")
                     for c in todo[:3]) if kind == "frisch" else
            todo[0].get_attribute("data-card"))
    req = urllib.request.Request(f"{url}/api/play/{state['id']}/move", data=json.dumps(
        {"move": move, "seq": view["seq"]}).encode(), headers={
            "Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=60).close()
    for item in todo:
        (driver.find_element(By.CSS_SELECTOR, item) if isinstance(item, str)
         else item).click()
    browser.moved(driver, state["seq"])
    assert browser.table_state(driver)["seq"] == state["seq"] + 1
    browser.wait_for(driver, "#announce", 5, visible=False)
    said = browser.announced(driver, "already made")  # filled a moment after the drawing
    assert "already made" in said, said
    driver.execute_script(WATCH_TRICK)
    reloaded = False

    def check() -> None:
        nonlocal reloaded
        assert browser.overflow_x(driver) == 0
        assert browser.contrast_problems(driver) == []
        for e in driver.find_elements(By.CSS_SELECTOR, "#game button, #hand .card, #record"):
            if e.is_displayed():
                assert e.size["height"] >= 44, e.get_attribute("outerHTML")[:80]
        now = browser.table_state(driver)
        if now["waiting"]:  # all there without scrolling: the table, the hand, the choices
            bottom = driver.execute_script(
                "return Math.max(...['felt', 'hand', 'choices'].map((id) =>"
                " document.getElementById(id).getBoundingClientRect().bottom + scrollY))")
            assert bottom <= 844, bottom
        if now["phase"] == "play" and now["waiting"] and not reloaded and now["tricks"] >= 4:
            assert browser.contrast_problems(driver) == []  # dim cards among the legal ones
            driver.refresh()
            browser.wait_for(driver, "#hand .card", 120)
            browser.idle(driver)
            assert browser.table_state(driver) == now
            driver.execute_script(WATCH_TRICK)
            reloaded = True

    out = browser.play_deal(driver, url, new_game=False, try_illegal=True, check=check)
    assert reloaded
    assert out["refused"] and "refused" in out["refused"]
    status = driver.find_element(By.ID, "status").text
    assert "Deal over" in status or "thrown in" in status
    if browser.table_state(driver)["phase"] == "scored":
        seen = driver.execute_script("return window.seen")
        assert seen["done"] >= 1
        assert {1, 2, 3} <= set(seen["counts"])  # the bots' cards one at a time
    replays(out["record_url"], tmp_path)


def test_a_frisch_on_a_phone(url, driver):
    """Nobody bids: the three cards chosen to pass are marked (and pressed), the three received
    carry their Frisch's badge, in AA contrast."""
    from selenium.webdriver.common.by import By

    browser.phone(driver, 390, 844)
    browser.open_table(driver, url, seat=0, seed=1, spec="hcp:margin=20/random")  # never bids
    kind, todo = browser.next_choice(driver)
    assert kind == "call" and todo[0].get_attribute("data-move") == "pass"
    todo[0].click()
    browser.moved(driver, 0)
    kind, todo = browser.next_choice(driver)
    assert kind == "frisch" and "Frisch 1" in driver.find_element(By.ID, "status").text
    passed = [driver.find_element(By.CSS_SELECTOR, c).get_attribute("data-card")
              for c in todo[:3]]
    for card in todo[:3]:
        driver.find_element(By.CSS_SELECTOR, card).click()
    chosen = driver.find_elements(By.CSS_SELECTOR, '#hand .card.chosen[aria-pressed="true"]')
    assert sorted(c.get_attribute("data-card") for c in chosen) == sorted(passed)
    assert "Pass" in driver.find_element(By.ID, "frischgo").text
    assert browser.contrast_problems(driver) == []
    driver.find_element(By.ID, "frischgo").click()
    browser.moved(driver, 1)
    got = driver.find_elements(By.CSS_SELECTOR, "#hand .card.received")
    assert len(got) == 3 and all(g.text.endswith("F1") for g in got)
    assert all("received in Frisch 1" in g.get_attribute("aria-label") for g in got)
    assert not {g.get_attribute("data-card") for g in got} & set(passed)
    assert browser.contrast_problems(driver) == []
    assert browser.overflow_x(driver) == 0


def test_a_long_wait_says_whether_the_engine_is_starting(driver):
    """While the first computation of the bots runs (the engine compiling or loading), a
    request that takes a while says so, with the seconds so far; afterwards, only the wait."""
    from selenium.webdriver.common.by import By

    app = create_app(workers=2)
    with LocalServer(app) as base:
        driver.get(base + "/play")
        browser.wait_for(driver, "#levels input")
        wait = ("pending.add(new AbortController());"
                "waitNote(Date.now() - 3000).then(() => arguments[0]());")
        with app.state.warmth.using("play"):  # as a first table being made
            driver.execute_async_script(wait)
            text = driver.find_element(By.ID, "waiting").text
            assert "The engine is starting" in text and "s so far" in text, text
        driver.execute_async_script(wait)
        text = driver.find_element(By.ID, "waiting").text
        assert text.startswith("Waiting for the table: 3 s"), text


def test_a_deal_by_keyboard_alone(url, driver, tmp_path):
    """1366 x 900: the set-up, every call, the Frisch and every card by arrows, Tab and Enter;
    the focus stays among the cards and choices after every move; the moves are announced."""
    from selenium.webdriver.common.by import By

    browser.desktop(driver)
    driver.set_window_size(1366, 900)
    focus = browser.keyboard_deal(driver, url, seat=2, seed=4, spec="heuristic/heuristic")
    assert focus and "body" not in focus and "BODY" not in focus, focus
    assert all(k.startswith(("card:", "move:", "level:", "next", "frischgo")) for k in focus), focus
    assert browser.announced(driver).strip()  # the live region is filled 30 ms after a move
    assert browser.overflow_x(driver) == 0
    replays(driver.find_element(By.ID, "record").get_attribute("href"), tmp_path)


def test_a_server_restart_mid_game_resumes(driver, tmp_path):
    """The tables are kept in the state folder: a new server on it, and a reload of the page
    carries the game on from where it stood. (Also: an empty seed draws a random one, shown
    above the table, and the rule variants of the set-up reach the table.)"""
    from selenium.webdriver.common.by import By

    from whist_sim.interfaces.web.server import free_port

    port = free_port()
    state_dir = tmp_path / "tables"
    with LocalServer(create_app(max_deals=1000, workers=2, state_dir=state_dir),
                     port=port) as base:
        seeds = set()
        for _ in range(2):
            state = browser.open_table(driver, base, seed=None, spec="random/random")
            seed = driver.execute_script("return t.seed")
            assert f"seed {seed}" in driver.find_element(By.ID, "dealinfo").text
            seeds.add(seed)
        assert len(seeds) == 2
        state = browser.open_table(driver, base, seat=0, seed=8, spec="random/random",
                                   rules={"target": 300, "zero_over": 30},
                                   speed="off")  # the bots' moves shown at once
        assert driver.execute_script("return [t.rules.target, t.rules.zero_over]") == [300, 30]
        assert "game to 300" in driver.find_element(By.ID, "totals").text
        for _ in range(6):
            kind, todo = browser.next_choice(driver)
            if kind == "over":
                break
            for item in todo:
                (driver.find_element("css selector", item) if isinstance(item, str)
                 else item).click()
            browser.moved(driver, state["seq"])
            state = browser.table_state(driver)
    with LocalServer(create_app(max_deals=1000, workers=2, state_dir=state_dir),
                     port=port) as base:
        driver.refresh()
        browser.wait_for(driver, "#hand .card", 120)
        browser.idle(driver)
        assert browser.table_state(driver) == state
        out = browser.play_deal(driver, base, new_game=False, try_illegal=False)
        replays(out["record_url"], tmp_path)


def test_see_a_chart(url, driver):
    from selenium.webdriver.common.by import By

    img = browser.open_chart(driver, url, "results/default/report.md")
    assert img.get_attribute("src").startswith(url + "/files/results/default/")
    assert driver.find_elements(By.CSS_SELECTOR, ".report table")
    assert "default" in driver.find_element(By.ID, "list").text
