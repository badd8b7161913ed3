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
    said = driver.find_element(By.ID, "sentence").text
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
    # the answer first, as a sentence: the bid with its strain, how often it is made, and how
    # much worse the runner-up is; then whether it is a close call and whether it was checked
    best = next(b for b in want["bids"] if b["bid"] == want["recommended"])
    diff = want["ev_diff"]
    worse = f"{diff:.1f}" if diff < 2 else f"{round(diff)}"
    assert said == (f"Bid {want['recommended']} ♠: made {round(100 * best['p_make'])} % of the "
                     f"time; {want['runner_up']} is {worse} points worse."), said
    close = driver.find_element(By.ID, "closecall")
    assert close.is_displayed() == want["close_call"]
    if want["close_call"]:
        assert close.text.startswith(f"A close call between {want['recommended']} and "
                                     f"{want['runner_up']}: ")
    assert "check" not in want  # the page asks for no check, and says so
    assert driver.find_element(By.ID, "verdict").text.startswith("Not checked against search")
    assert "play model: every seat plays heuristic" in driver.find_element(
        By.ID, "assumptions").text
    assert "trump ♠" in driver.find_element(By.ID, "assumptions").text  # strains as symbols
    # an advice that was checked (the command's check, here against expert play) shows the
    # check's verdict and why, in the check's own words
    from whist_sim.analyses.advisor import advise

    checked = json.loads(advise("AKQ2.K3.QJ54.872", trump="S", declarer=3, bids="6",
                                deals=150, play="heuristic", check="expert",
                                check_deals=100).to_json())
    driver.execute_script("show(arguments[0])", checked)
    verdict = driver.find_element(By.ID, "verdict").text
    word = checked["check"]["verdict"].capitalize()
    assert verdict == (f"{word} by the check against {checked['check']['label']}: "
                       f"{checked['check']['verdict_why']}."), verdict
    # a new request clears the old answer at once, before its own answer comes
    driver.find_element(By.ID, "go").click()
    assert not driver.find_element(By.ID, "result").is_displayed()
    assert driver.find_element(By.ID, "sentence").get_attribute("textContent") == ""
    browser.wait_for(driver, "#sentence", 60)
    # a malformed hand: the message on the page, no result
    box = driver.find_element(By.ID, "hand")
    box.clear()
    box.send_keys("AKQ2.K3.QJ54")
    driver.find_element(By.ID, "go").click()
    err = browser.wait_for(driver, "#error", 30)
    assert "four suits" in err.text and "Traceback" not in err.text


def test_the_advisors_progress_never_goes_backwards(url, driver):
    """The page's progress, fed a job that reports 500 deals, then 0 (a stale answer), then
    1,000 of 2,000: it shows 500, 500, 1,000, never less than it showed."""
    from selenium.webdriver.common.by import By

    driver.get(url + "/advisor")
    browser.wait_for(driver, "#play option", visible=False)
    shown = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const answers = [500, 0, 1000].map((n) => ({id: "x", state: "running", deals: 2000,
                                                     done_deals: n, fraction: n / 2000}));
        const seen = [];
        api = async () => answers.shift();
        job = {id: "x"};
        (async () => {
          for (let i = 0; i < 3; i++) {
            await poll();
            clearTimeout(timer);
            seen.push(document.getElementById("progtext").textContent);
          }
          job = null;
          done(seen);
        })();""")
    assert shown == ["500 of 2,000 deals", "500 of 2,000 deals", "1,000 of 2,000 deals"], shown
    assert driver.find_element(By.ID, "bar").get_attribute("style") == "width: 50%;"


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
        browser.wait_for(driver, "#play option", visible=False)
        driver.find_element(By.ID, "hand").send_keys("AKQ2.K3.QJ54.872")
        Select(driver.find_element(By.ID, "trump")).select_by_value("S")
        driver.find_element(By.XPATH, "//summary[text()='Model and sample']").click()
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
    """390 x 844, touch, "tap twice to play" on by default: every control and card at least
    44 x 44 px, the table, the hand and the choices on one screen; one tap picks a move and
    sends nothing, the second plays it, a third does nothing; the bots' cards come one by one
    and each finished trick shows its winner; a reload mid-deal resumes; every text in AA
    contrast; an illegal card is refused in words."""
    from selenium.webdriver.common.by import By

    browser.phone(driver, 390, 844)
    driver.get(url + "/play")
    driver.execute_script("localStorage.removeItem('whist-tap-twice')")
    driver.get(url + "/play")
    browser.wait_for(driver, "#levels input")
    assert browser.tap_twice(driver)  # on by default on a touch screen
    assert browser.contrast_problems(driver) == []
    state = browser.open_table(driver, url, seat=1, seed=11, level="beginner")
    assert browser.tap_twice(driver)
    assert "table=" + state["id"] in driver.current_url
    assert not driver.find_element(By.ID, "setupbox").get_attribute("open")  # folded away
    assert "heuristic/heuristic" in driver.find_element(By.ID, "leveldetails").get_attribute(
        "textContent")
    assert browser.contrast_problems(driver) == []
    # one tap picks the first choice and sends nothing; two more in a row make one move
    kind, todo = browser.next_choice(driver)
    key = todo[0].get_attribute("data-key")
    todo[0].click()
    time.sleep(0.3)
    assert browser.table_state(driver)["seq"] == state["seq"]
    assert driver.find_element(By.ID, "status").text.startswith("Tap ")
    assert "armed" in driver.find_element(By.CSS_SELECTOR, f'[data-key="{key}"]').get_attribute(
        "class")
    driver.execute_script("for (let i = 0; i < 2; i++) document.querySelector("
                          "`[data-key=\"${arguments[0]}\"]`).click();", key)
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
        browser.tap(driver, kind, item)
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
                assert min(e.size["height"], e.size["width"]) >= 44, e.get_attribute(
                    "outerHTML")[:80]
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
    assert out["refused"] and out["refused"].startswith("You must follow "), out["refused"]
    assert "seat" not in out["refused"] and "revoke" not in out["refused"]
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
    browser.tap(driver, kind, todo[0])
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


class Compiling:
    """numba compiling right now, for 12 s so far (as :class:`whist_sim.interfaces.web.warmth.
    Compiles`)."""

    depth = 1

    def so_far(self) -> float:
        return 12.0


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
        warmth = app.state.warmth
        with warmth.using("play"):  # as a first table being made
            driver.execute_async_script(wait)
            text = driver.find_element(By.ID, "waiting").text
            assert "The engine is starting" in text and "s so far" in text, text
            # compiling: no estimate until one was measured on this machine, then that one
            real = warmth.compiles
            warmth.compiles = Compiling()
            try:
                warmth.measured["play"] = None
                driver.execute_async_script(wait)
                text = driver.find_element(By.ID, "waiting").text
                assert "compiling its kernels" in text and "minute" not in text, text
                assert "took" not in text, text
                warmth.measured["play"] = 206.0
                driver.execute_async_script(wait)
                text = driver.find_element(By.ID, "waiting").text
                assert "the last time on this machine it took 206 s" in text, text
            finally:
                warmth.compiles = real
        driver.execute_async_script(wait)
        text = driver.find_element(By.ID, "waiting").text
        assert text.startswith("Waiting for the table: 3 s"), text


#: keeps, in the page, every text the live region announces
WATCH_ANNOUNCE = """
window.said = [];
new MutationObserver(() => {
  const text = document.getElementById("announce").textContent;
  if (text) window.said.push(text);
}).observe(document.getElementById("announce"), {childList: true, characterData: true,
                                                 subtree: true});
"""


def test_a_deal_by_keyboard_alone(url, driver, tmp_path):
    """1366 x 900: the set-up, every call, the Frisch and every card by arrows, Tab and Enter;
    the first focus is on the choices, the hand is one tab stop with Home and End; the focus
    stays among the cards and choices after every move; the live region announces every
    contract, the sum of the contracts and each trick's winner."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.desktop(driver)
    driver.set_window_size(1366, 900)

    def keys_in_the_hand() -> None:
        driver.execute_script(WATCH_ANNOUNCE)
        here = driver.switch_to.active_element
        assert here.find_elements(By.XPATH, "ancestor::*[@id='choices']"), here.tag_name
        cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
        browser.focus_with_keys(driver, cards[3])
        ActionChains(driver).send_keys(Keys.END).perform()
        assert driver.switch_to.active_element == cards[-1]
        ActionChains(driver).send_keys(Keys.HOME).perform()
        assert driver.switch_to.active_element == cards[0]
        ActionChains(driver).send_keys(Keys.TAB).perform()  # one tab stop: out of the hand
        assert driver.switch_to.active_element.find_elements(
            By.XPATH, "ancestor::*[@id='choices']")

    focus = browser.keyboard_deal(driver, url, seat=2, seed=4, spec="heuristic/heuristic",
                                  on_deal=keys_in_the_hand)
    assert focus and "body" not in focus and "BODY" not in focus, focus
    said = " ".join(driver.execute_script("return window.said"))
    tricks = driver.execute_script("return t.tricks.length")
    assert said.count("won the trick.") >= tricks - 1, said  # the last one: the deal's end
    assert "Your contract: " in said and " bids " in said, said
    assert "Contracts " in said and " of 13: " in said, said
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
    # the server is down: a tap says so in a banner, says that the game is saved, and the
    # page tries again by itself; nothing was played
    kind, todo = browser.next_choice(driver)
    if kind in ("call", "contract", "card"):
        browser.tap(driver, kind, todo[0])
    else:
        driver.find_element(By.ID, "hint").click()
    lost = browser.wait_for(driver, "#lost", 30)
    assert "No connection to the server" in lost.text and "saved" in lost.text, lost.text
    assert "Trying again" in lost.text
    assert "Failed to fetch" not in driver.find_element(By.TAG_NAME, "body").text
    with LocalServer(create_app(max_deals=1000, workers=2, state_dir=state_dir),
                     port=port) as base:
        end = time.monotonic() + 30
        while driver.find_element(By.ID, "lost").is_displayed():  # it comes back by itself
            assert time.monotonic() < end, "the page did not reconnect"
            time.sleep(0.1)
        browser.idle(driver)
        assert browser.table_state(driver) == state
        assert "Connected again" in browser.announced(driver, "Connected again")
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


# ---------------------------------------------------------------------------- every screen
#: the screens every page is checked at: (width, height, a phone's touch screen)
SCREENS = [(360, 740, True), (390, 844, True), (430, 932, True), (844, 390, True),
           (932, 430, True), (1280, 800, False)]


def screen(driver, width: int, height: int, touch: bool) -> None:
    """A ``width`` x ``height`` CSS-pixel viewport: a phone's (touch, mobile) or a desktop's."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": touch})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch,
                                                                  "maxTouchPoints": 5})


def first_move(v: dict) -> str:
    """Pass when allowed, else the first legal call or contract; the three last cards in a
    Frisch; the first legal card."""
    if v["phase"] == "frisch":
        return " ".join(c["text"] for c in v["hand"][-3:])
    if v["phase"] == "play":
        return next(c["text"] for c in v["hand"] if c["legal"])
    texts = [m["text"] for m in v["legal"]]
    return "pass" if "pass" in texts else texts[0]


@pytest.fixture(scope="module")
def mid_deal(url):
    """A table of the cheapest bots at its first trick, the person to play a card."""
    from webcall import call

    status, v = call(url, "/api/play", {"seat": 1, "seed": 11, "seats": "heuristic/heuristic"})
    assert status == 200, v
    while not (v["phase"] == "play" and v["waiting"]):
        status, v = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v)})
        assert status == 200, v
    return v["id"]


@pytest.fixture(scope="module")
def advice(url):
    """An advice JSON of the API, shown on the advisor page at every screen."""
    from webcall import call

    status, a = call(url, "/api/advise", {"hand": "AKQ2.K3.QJ54.872", "trump": "S",
                                          "declarer": 3, "bids": "6", "deals": 150,
                                          "play": "heuristic"})
    assert status == 200, a
    return a


#: the visible controls of a page smaller than 44 x 44 CSS px (a checkbox counts by its label)
SMALL_TARGETS = """
const bad = [];
for (const e of document.querySelectorAll("a, button, select, input, summary")) {
  if (!e.getClientRects().length || e.closest("details:not([open]) > :not(summary), .hidden"))
    continue;
  const box = (e.type === "checkbox" || e.type === "radio") ? e.closest("label") : e;
  const r = box.getBoundingClientRect();
  if (e.tagName === "A" && e.closest("p, li, td") && !e.classList.contains("button")) continue;
  const wide = e.tagName === "BUTTON" || e.type === "checkbox" || e.type === "radio";
  if (r.height < 44 || (wide && r.width < 44))
    bad.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} `
             + `"${(e.textContent || e.value || "").trim().slice(0, 12)}" `
             + `${Math.round(r.width)}x${Math.round(r.height)}`);
}
return bad;
"""


OPEN_ALL = "document.querySelectorAll('details').forEach((d) => { d.open = true; })"


@pytest.mark.parametrize("width,height,touch", SCREENS,
                         ids=[f"{w}x{h}" for w, h, _ in SCREENS])
def test_every_page_fits_the_screen(url, driver, mid_deal, advice, width, height, touch):
    """At each screen, one page load of each page: no horizontal scroll, every control at
    least 44 x 44 px; on the play page the table, the hand and the choices on one screen, and
    at twice the text size the seats' names whole; the advisor with an answer shown, its
    chart as wide as the page at most with every bid on it; the charts page with a lookup
    answer and the chart as a table in text of at least 12 px."""
    from selenium.webdriver.common.by import By

    screen(driver, width, height, touch)
    # the play page, mid-deal
    driver.get(f"{url}/play?table={mid_deal}")
    browser.wait_for(driver, "#hand .card", 60)
    browser.idle(driver)
    assert browser.overflow_x(driver) == 0
    assert driver.execute_script(SMALL_TARGETS) == []
    cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    assert len(cards) == 13 and min(min(c.size.values()) for c in cards) >= 44
    bottom = driver.execute_script(
        "return Math.max(...['felt', 'hand', 'choices'].map((id) =>"
        " document.getElementById(id).getBoundingClientRect().bottom + scrollY))")
    assert bottom <= height, bottom
    assert browser.contrast_problems(driver) == []
    driver.execute_script(OPEN_ALL)  # the set-up with its rule variants and seat specs
    assert driver.execute_script(SMALL_TARGETS) == []
    assert browser.overflow_x(driver) == 0
    # 200 % text: every seat's name on one line, inside its seat, and still no side scroll
    driver.execute_script("document.documentElement.style.fontSize = '200%'")
    broken = driver.execute_script(
        "return [...document.querySelectorAll('.seat .who')].filter((w) => {"
        " const r = w.getBoundingClientRect(), s = w.closest('.seat').getBoundingClientRect();"
        " return w.getClientRects().length !== 1 || r.left < s.left - 0.5"
        " || r.right > s.right + 0.5; }).map((w) => w.textContent)")
    assert broken == []
    assert browser.overflow_x(driver) == 0
    # the advisor with an answer
    driver.get(url + "/advisor")
    browser.wait_for(driver, "#play option", visible=False)
    driver.execute_script("show(arguments[0])", advice)
    assert driver.find_element(By.ID, "sentence").text.startswith(f"Bid {advice['recommended']} ♠")
    assert browser.overflow_x(driver) == 0
    assert driver.execute_script(SMALL_TARGETS) == []
    driver.execute_script(OPEN_ALL)  # the model, the sample and the rule variants too
    assert driver.execute_script(SMALL_TARGETS) == []
    assert browser.overflow_x(driver) == 0
    picker = driver.find_elements(By.CSS_SELECTOR, "#picker button")
    assert len(picker) == 52 and min(min(b.size.values()) for b in picker) >= 44
    svg = driver.find_element(By.CSS_SELECTOR, "#chart svg")
    assert svg.size["width"] <= driver.find_element(By.ID, "chart").size["width"]
    labels = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [...arguments[0].querySelectorAll('text')].filter((t) => {"
        " const b = t.getBoundingClientRect(); return b.left >= r.left && b.right <= r.right;"
        "}).map((t) => t.textContent)", svg)
    assert all(str(b["bid"]) in labels for b in advice["bids"])
    # the charts page with a lookup answer and the chart as a table
    driver.get(url + "/charts")
    browser.wait_for(driver, "#cells td")
    driver.find_element(By.ID, "hand").send_keys("AKQ2.K3.QJ54.872")
    driver.find_element(By.ID, "lookupgo").click()
    browser.wait_for(driver, "#answer", 30)
    assert browser.overflow_x(driver) == 0
    assert driver.execute_script(SMALL_TARGETS) == []
    sizes = driver.execute_script("return [...document.querySelectorAll('#cells td, #cells th')]"
                                  ".map((e) => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 12
    assert browser.contrast_problems(driver) == []


def test_the_chart_lookup_and_its_advice(url, driver):
    """On a phone: a hand tapped in on the charts page, the deal, and the cell's best bid and
    runner-up in a sentence, as ``whist-sim chart --json`` answers; the link opens the advisor
    with the same hand and deal; a malformed hand is refused in words."""
    from selenium.webdriver.common.by import By

    screen(driver, 390, 844, True)
    driver.get(url + "/charts")
    browser.wait_for(driver, "#cells td")
    for c in HAND:
        driver.find_element(By.CSS_SELECTOR, f'#picker button[data-card="{c}"]').click()
    assert driver.find_element(By.ID, "hand").get_attribute("value") == "AKQ2.K3.QJ54.872"
    driver.find_element(By.ID, "declarer").send_keys("3")
    driver.find_element(By.ID, "bids").send_keys("6")
    driver.find_element(By.ID, "lookupgo").click()
    said = browser.wait_for(driver, "#answersentence", 30).text
    r = CliRunner().invoke(main, ["chart", "AKQ2.K3.QJ54.872", "--trump", "S", "--declarer",
                                  "3", "--bids", "6", "--json"])
    assert r.exit_code == 0, r.output
    want = json.loads(r.output)
    assert said.startswith(f"Bid {want['bid']} ♠: expected {want['best']['ev']:+.1f} points")
    assert f"; {want['runner_up']['bid']} is {want['difference']['points']:.1f} points worse" \
        in said
    detail = driver.find_element(By.ID, "answerdetail").text
    assert f"{want['cell']['hcp_band']} high-card points" in detail
    here = driver.find_element(By.CSS_SELECTOR, "#cells td.here")
    assert here.text.rstrip("?") == str(want["best"]["bid"])  # the cell, marked in the table
    driver.find_element(By.ID, "advicelink").click()
    browser.wait_for(driver, "#play option", visible=False)
    values = {f: driver.find_element(By.ID, f).get_attribute("value")
              for f in ("hand", "trump", "declarer", "bids", "seat")}
    assert values == {"hand": "AKQ2.K3.QJ54.872", "trump": "S", "declarer": "3", "bids": "6",
                      "seat": "0"}
    assert len(driver.find_elements(By.CSS_SELECTOR, "#picker button.on")) == 13
    driver.get(url + "/charts")
    browser.wait_for(driver, "#cells td")
    driver.find_element(By.ID, "hand").send_keys("AKQ2.K3.QJ54")
    driver.find_element(By.ID, "lookupgo").click()
    err = browser.wait_for(driver, "#lookuperror", 30).text
    assert "four suits" in err and "Traceback" not in err
