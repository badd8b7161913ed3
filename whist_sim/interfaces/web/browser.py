"""Driving the pages in a real browser: the system's headless Chromium through Selenium (the
browser tests and ``scripts/web_screenshots.py``; docs/WEB.md).

Nothing is downloaded: the browser and its driver are the OS packages (``chromium``,
``chromium-driver``), found on ``PATH`` or at the usual places. :func:`chromium` says whether
they are there; :func:`open_browser` starts one with a fresh profile; :func:`phone` makes the
page a phone's; :func:`ask_advice`, :func:`play_deal` (by taps), :func:`keyboard_deal` and
:func:`open_chart` are the journeys of the pages (:func:`tap` taps a move as a person does,
twice with "tap twice to play" on); :func:`overflow_x` and
:func:`contrast_problems` check a page's layout and colours.
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


def announced(driver: Any, contains: str = "", timeout_s: float = 5.0) -> str:
    """The text of the live region ``#announce`` once it holds ``contains`` (any text by
    default), or its text when ``timeout_s`` has passed: the page empties it and fills it 30 ms
    later, so that a screen reader reads a repeated message again."""
    from selenium.webdriver.common.by import By

    end = time.monotonic() + timeout_s
    while True:
        said = driver.find_element(By.ID, "announce").get_attribute("textContent") or ""
        if said.strip() and contains in said or time.monotonic() > end:
            return said
        time.sleep(0.02)


def ask_advice(driver: Any, url: str, cards: list[str], trump: str = "S", deals: int = 200,
               play: str = "heuristic", declarer: int | None = None, bids: str = "") -> Any:
    """On the advisor page: click ``cards`` (``"AS"``, ``"TH"``, ...), choose the deal, get the
    advice; returns the chart (the SVG element)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/advisor")
    wait_for(driver, "#play option", visible=False)
    for c in cards:
        driver.find_element(By.CSS_SELECTOR, f'#picker button[data-card="{c}"]').click()
    Select(driver.find_element(By.ID, "trump")).select_by_value(trump)
    model = driver.find_element(By.ID, "play").find_element(By.XPATH, "ancestor::details")
    if not model.get_attribute("open"):
        model.find_element(By.TAG_NAME, "summary").click()
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


def table_state(driver: Any) -> dict[str, Any] | None:
    """The play page's view of its table (``seq``, ``phase``, ``over``, ``tricks``, ``seat``,
    ``id``), or None before a game."""
    return driver.execute_script(
        "return (typeof t !== 'undefined' && t) ? {seq: t.seq, phase: t.phase, over: t.over, "
        "tricks: t.tricks.length, seat: t.seat, id: t.id, waiting: t.waiting, "
        "hand: t.hand.map((c) => c.text)} : null")


def idle(driver: Any, timeout_s: float = 300.0) -> None:
    """Wait until the play page has no request or animation under way (the first deal of a
    fresh install waits on the engine's compile: minutes)."""
    end = time.monotonic() + timeout_s
    while driver.execute_script("return document.body.dataset.busy") != "0":
        if time.monotonic() > end:
            raise TimeoutError(f"the play page was still busy after {timeout_s} s")
        time.sleep(0.05)


def open_table(driver: Any, url: str, seat: int = 0, seed: int | None = 0,
               spec: str | None = None, level: str | None = None,
               speed: str = "fast", rules: dict[str, Any] | None = None,
               players: int = 4, taps: int | None = None) -> dict[str, Any]:
    """On the play page: choose the opponents (a ``level`` by its name, or a ``spec`` for every
    seat), the ``players``, the seat and the seed (None: a random one), the animation
    ``speed``, the ``rules`` that differ from the rule book (typed into "Rule variants"), "tap
    twice to play" (``taps`` 2 or 1; None: the page's default, on with touch), and deal;
    returns :func:`table_state` once the table is idle."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/play")
    driver.execute_script("localStorage.setItem('whist-anim', arguments[0])", speed)
    if taps is not None:
        driver.execute_script("localStorage.setItem('whist-tap-twice', arguments[0])",
                              "1" if taps == 2 else "0")
    driver.get(url + "/play")
    wait_for(driver, "#levels input")
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    if level is not None:
        driver.find_element(By.CSS_SELECTOR, f'#levels input[value="{level}"]').click()
    if spec is not None:
        driver.find_element(By.CSS_SELECTOR, "#specbox summary").click()
        for box in driver.find_elements(By.CSS_SELECTOR, "#seatspecs input"):
            box.clear()
            box.send_keys(spec)
    if rules:
        driver.find_element(By.CSS_SELECTOR, "#rules").find_element(
            By.XPATH, "..").find_element(By.TAG_NAME, "summary").click()
        for name, value in rules.items():
            box = driver.find_element(By.ID, "rule_" + name)
            if box.get_attribute("type") == "checkbox":
                if box.is_selected() != bool(value):
                    box.click()
            elif box.tag_name == "select":
                Select(box).select_by_value(str(value))
            else:
                box.clear()
                box.send_keys(str(value))
    Select(driver.find_element(By.ID, "seat")).select_by_value(str(seat))
    box = driver.find_element(By.ID, "seed")
    box.clear()
    if seed is not None:
        box.send_keys(str(seed))
    driver.find_element(By.ID, "start").click()
    wait_for(driver, "#hand .card", 300)
    idle(driver)
    state = table_state(driver)
    assert state is not None
    return state


def moved(driver: Any, seq: int, timeout_s: float = 120.0) -> bool:
    """Wait until the table has moved past ``seq`` (True) or a move was refused (False)."""
    from selenium.webdriver.common.by import By

    end = time.monotonic() + timeout_s
    while True:
        idle(driver)
        state = table_state(driver)
        if state is not None and state["seq"] != seq:
            return True
        if driver.find_element(By.ID, "refused").is_displayed():
            return False
        if time.monotonic() > end:
            raise TimeoutError("the table did not answer a move")
        time.sleep(0.05)


def next_choice(driver: Any) -> tuple[str, list[Any]]:
    """What a simple player does now, and the elements to activate in order: ``pass`` in the
    auction when it may (else the lowest legal bid), the first legal contract, the three
    lowest cards in a Frisch (then the pass button), the first legal card; ``("over", [])``
    at the end of the deal. An element to activate is a Selenium element or a CSS selector."""
    from selenium.webdriver.common.by import By

    state = table_state(driver)
    if state is None or state["over"]:
        return "over", []
    if not state["waiting"]:
        raise RuntimeError(f"nothing to do at the table: {state}")
    live = [b for b in driver.find_elements(By.CSS_SELECTOR, "#choices button[data-move]")
            if b.get_attribute("aria-disabled") != "true"]
    if state["phase"] == "auction":
        passes = [b for b in live if b.get_attribute("data-move") == "pass"]
        return "call", [(passes or live)[0]]
    if state["phase"] == "contracts":
        return "contract", [live[0]]
    if state["phase"] == "frisch":
        # selectors, not elements: each tap draws the hand again
        cards = [c.get_attribute("data-card")
                 for c in driver.find_elements(By.CSS_SELECTOR, "#hand .card")[-3:]]
        return "frisch", [*(f'#hand .card[data-card="{c}"]' for c in cards), "#frischgo"]
    return "card", [driver.find_elements(By.CSS_SELECTOR, "#hand .card.legal")[0]]


def tap_twice(driver: Any) -> bool:
    """Whether the play page's "tap twice to play" is on (a move is then two taps)."""
    return bool(driver.execute_script("return document.getElementById('taptwice').checked"))


def tap(driver: Any, kind: str, item: Any) -> None:
    """Activate ``item`` (an element or a CSS selector) as a person would: a call, a contract
    or a card twice when "tap twice to play" is on (the first tap picks it), once otherwise."""
    from selenium.webdriver.common.by import By

    times = 2 if kind in ("call", "contract", "card") and tap_twice(driver) else 1
    element = driver.find_element(By.CSS_SELECTOR, item) if isinstance(item, str) else item
    key = element.get_attribute("data-key")
    element.click()
    if times == 2:  # the first tap drew the page again: the same control, found again
        driver.find_element(By.CSS_SELECTOR, f'[data-key="{key}"]').click()


def play_deal(driver: Any, url: str, seat: int = 0, seed: int = 0,
              spec: str = "heuristic/heuristic", try_illegal: bool = True,
              snapshot: Callable[[], None] | None = None, snapshot_trick: int = 5,
              level: str | None = None, speed: str = "fast", new_game: bool = True,
              check: Callable[[], None] | None = None) -> dict[str, Any]:
    """On the play page: deal (unless ``new_game`` is False: the table on the page goes on),
    then play the person's seat to the end of the deal by tapping (:func:`next_choice`);
    once, a card that may not be played is tapped and must be refused (``try_illegal``).
    ``snapshot()`` is called once, the first time the person is to play a card after
    ``snapshot_trick`` tricks; ``check()`` after every move. Returns ``{"refused": text or
    None, "record_url": ..., "moves": n}``."""
    from selenium.webdriver.common.by import By

    if new_game:
        open_table(driver, url, seat, seed, spec=None if level else spec, level=level,
                   speed=speed)
    refused = None
    moves = 0
    for _ in range(300):
        idle(driver)
        kind, todo = next_choice(driver)
        if kind == "over":
            break
        state = table_state(driver)
        assert state is not None
        if kind == "card":
            if snapshot is not None and state["tricks"] >= snapshot_trick:
                snapshot()
                snapshot = None
            dim = driver.find_elements(By.CSS_SELECTOR, "#hand .card.dim")
            if try_illegal and refused is None and dim:
                dim[0].click()
                refused = wait_for(driver, "#refused", 30).text
                idle(driver)
                continue
        for item in todo:
            tap(driver, kind, item)
        if not moved(driver, state["seq"]):
            raise RuntimeError("refused: " + driver.find_element(By.ID, "refused").text)
        moves += 1
        if check is not None:
            check()
    idle(driver)
    record_url = wait_for(driver, "#record", 30).get_attribute("href")
    return {"refused": refused, "record_url": record_url, "moves": moves}


def overflow_x(driver: Any) -> int:
    """How many CSS pixels the page is wider than its viewport (0: no horizontal scroll)."""
    return int(driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth"))


#: the WCAG AA contrast of every visible text against its background (4.5:1, 3:1 for large
#: text), computed from the styles: a list of the failures
CONTRAST_JS = r"""
const lum = (rgb) => { const v = rgb.map((x) => { x /= 255;
  return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
const parse = (c) => { const m = c.match(/[\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; };
const bg = (e) => { let layers = [];
  for (let x = e; x; x = x.parentElement) { const c = parse(getComputedStyle(x).backgroundColor);
    const a = c.length > 3 ? c[3] : 1; if (a > 0) { layers.push([c, a]); if (a >= 1) break; } }
  let out = [255, 255, 255];
  for (const [c, a] of layers.reverse()) out = out.map((v, i) => c[i] * a + v * (1 - a));
  return out; };
const bad = [];
for (const e of document.querySelectorAll("body *")) {
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || !e.getClientRects().length) continue;
  const st = getComputedStyle(e);
  if (st.visibility === "hidden"
      || e.closest(".sr-only, .hidden, details:not([open]) > :not(summary)")) continue;
  const fg = parse(st.color), b = bg(e);
  const l1 = lum(fg.slice(0, 3)), l2 = lum(b);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
  const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
  if (ratio < need) bad.push(`${e.tagName.toLowerCase()}.${e.className} `
                            + `"${e.textContent.trim().slice(0, 20)}" ${ratio.toFixed(2)}:1`);
}
return bad;
"""


def contrast_problems(driver: Any) -> list[str]:
    """The visible texts of the page below WCAG AA contrast (:data:`CONTRAST_JS`)."""
    return list(driver.execute_script(CONTRAST_JS))


def focus_with_keys(driver: Any, target: Any, limit: int = 80) -> None:
    """Move the keyboard focus to ``target`` with keys only: arrows along the cards of the
    hand or the choices, Tab and Shift+Tab between them."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        here = driver.switch_to.active_element
        if here == target:
            return
        where = driver.execute_script(
            "const [a, b] = arguments; const g = (x) => x.closest && x.closest('#hand, #choices');"
            "const same = g(a) && g(a) === g(b);"
            "const after = a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;"
            "return [same, !!after];", here, target)
        same, after = where
        if same:
            key = Keys.ARROW_RIGHT if after else Keys.ARROW_LEFT
            ActionChains(driver).send_keys(key).perform()
        elif after:
            ActionChains(driver).send_keys(Keys.TAB).perform()
        else:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(
                Keys.SHIFT).perform()
    raise RuntimeError("the keyboard did not reach the control")


def keyboard_deal(driver: Any, url: str, seat: int = 0, seed: int = 0,
                  spec: str = "heuristic/heuristic",
                  on_deal: Callable[[], None] | None = None) -> list[str]:
    """The play page by keyboard only: fill in the set-up, deal, and play the person's seat to
    the end of the deal (:func:`next_choice`'s choices reached with arrows and Tab, activated
    with Enter; twice with "tap twice to play" on). ``on_deal()`` is called once the table is
    dealt. Returns where the focus was after each move (its ``data-key``, or the tag of the
    element: ``body`` would mean the focus was lost)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(url + "/play")
    driver.execute_script("localStorage.setItem('whist-anim', 'fast')")
    driver.get(url + "/play")
    wait_for(driver, "#levels input")
    keys = ActionChains(driver)
    # the set-up by keys: open the seat specs, type them, the seat and seed, then Deal
    focus = driver.find_element(By.CSS_SELECTOR, "#specbox summary")
    driver.execute_script("document.activeElement.blur()")
    for _ in range(60):
        if driver.switch_to.active_element == focus:
            break
        keys.send_keys(Keys.TAB).perform()
    keys.send_keys(Keys.ENTER).perform()
    for _ in driver.find_elements(By.CSS_SELECTOR, "#seatspecs input"):
        keys.send_keys(Keys.TAB).send_keys(spec).perform()
    for name, value in (("seat", str(seat)), ("seed", str(seed))):
        box = driver.find_element(By.ID, name)
        for _ in range(60):
            if driver.switch_to.active_element == box:
                break
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(
                Keys.SHIFT).perform()
        if name == "seat":
            ActionChains(driver).send_keys(Keys.HOME).send_keys(Keys.DOWN * seat).perform()
        else:
            ActionChains(driver).send_keys(value).perform()
    ActionChains(driver).send_keys(Keys.ENTER).perform()  # submits the set-up form
    wait_for(driver, "#hand .card", 300)
    if on_deal is not None:
        idle(driver)
        on_deal()
    focus_after = []
    for _ in range(300):
        idle(driver)
        kind, todo = next_choice(driver)
        if kind == "over":
            break
        state = table_state(driver)
        assert state is not None
        presses = 2 if kind in ("call", "contract", "card") and tap_twice(driver) else 1
        for item in todo:
            target = driver.find_element(By.CSS_SELECTOR, item) if isinstance(item, str) else item
            focus_with_keys(driver, target)
            for _ in range(presses):
                ActionChains(driver).send_keys(Keys.ENTER).perform()
        if not moved(driver, state["seq"]):
            raise RuntimeError("refused: " + driver.find_element(By.ID, "refused").text)
        here = driver.switch_to.active_element
        focus_after.append(here.get_attribute("data-key") or here.tag_name)
    return focus_after


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
