"""Screenshots of the web page (``whist-sim serve``, docs/WEB.md) in the system's headless
Chromium: the advisor with its advice, a deal played to the end, the chart lookup and a chart
of the reports, on a desktop and on a phone.

    python scripts/web_screenshots.py --data data/default --out results [--no-progress]

Writes into ``RESULTS/web/``: ``advisor.png``, ``play.png`` (mid-deal), ``play_end.png`` (the
deal over), ``charts.png`` (the chart lookup) and ``report.png`` (a report) in a desktop window
1280 px wide (the whole page); ``phone_setup.png``, ``phone_play.png`` (a card picked by a
first tap), ``phone_trick.png`` (a finished trick with its winner), ``phone_refused.png`` (a
card that may not be played, refused in words), ``phone_end.png``, ``phone_landscape.png``
(844 x 390), ``phone_advisor.png`` and ``phone_charts.png`` on a phone, 390 x 844 CSS pixels
unless said, what the screen shows; and ``README.md`` (what each shows and how it was made).
The server is the app of ``whist-sim serve`` on a free local port; its charts page browses
``RESULTS`` itself. The advisor asks the hand of docs/ADVISOR.md (``AKQ2.K3.QJ54.872``, trump
spades, declarer seat 3 at 6) on 2,000 sampled deals with expert play, seed 0, and the charts
page looks the same hand up; the play page deals game seed 2 to seat 0 against
heuristic/expert bots and plays the seat by clicking (browser.play_deal); the phone deals
seed 5 to seat 1 against the "club player" bots and plays it by taps, two a move ("tap twice
to play", on by default on a touch screen). Needs the ``chromium`` and ``chromium-driver`` OS
packages (nothing is downloaded). ``--data`` is accepted for ``make results`` and not used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from whist_sim.interfaces.web import browser
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.server import LocalServer

HAND = ["AS", "KS", "QS", "2S", "KH", "3H", "QD", "JD", "5D", "4D", "8C", "7C", "2C"]
WIDTH = 1280
MAX_HEIGHT = 2400  # pixels of a screenshot at most (a long report is cut there)


def _shot(driver, path: Path) -> None:
    """The whole page, not only the window."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(WIDTH, max(700, min(int(height) + 40, MAX_HEIGHT)))
    driver.save_screenshot(str(path))
    driver.set_window_size(WIDTH, 1000)


def _phone(driver, url: str, folder: Path) -> None:
    """A deal on a phone (390 x 844): the set-up, a card picked mid-deal, a finished trick, a
    refused card, the end; the same table held sideways (844 x 390)."""
    from selenium.webdriver.common.by import By

    browser.phone(driver, 390, 844)
    driver.get(url + "/play")
    driver.execute_script("localStorage.setItem('whist-anim', 'normal');"
                          "localStorage.removeItem('whist-tap-twice')")
    driver.get(url + "/play")
    browser.wait_for(driver, "#levels input")
    driver.save_screenshot(str(folder / "phone_setup.png"))
    browser.open_table(driver, url, seat=1, seed=5, level="club player", speed="normal")
    shots = {"phone_play.png": False, "phone_trick.png": False, "phone_refused.png": False}
    for _ in range(300):
        browser.idle(driver)
        kind, todo = browser.next_choice(driver)
        if kind == "over":
            break
        state = browser.table_state(driver)
        assert state is not None
        dim = driver.find_elements(By.CSS_SELECTOR, "#hand .card.dim")
        if kind == "card" and dim and not shots["phone_refused.png"]:
            dim[0].click()
            browser.wait_for(driver, "#refused", 30)
            browser.idle(driver)
            driver.save_screenshot(str(folder / "phone_refused.png"))
            shots["phone_refused.png"] = True
        if kind == "card" and state["tricks"] >= 3 and not shots["phone_play.png"]:
            todo[0].click()  # the first tap picks the card
            browser.wait_for(driver, "#hand .card.armed", 10)
            driver.save_screenshot(str(folder / "phone_play.png"))
            shots["phone_play.png"] = True
            driver.find_element(By.CSS_SELECTOR, "#hand .card.armed").click()
        else:
            for item in todo:
                browser.tap(driver, kind, item)
        if state["tricks"] == 5 and kind == "card":
            browser.moved(driver, state["seq"])
            browser.phone(driver, 844, 390)
            driver.save_screenshot(str(folder / "phone_landscape.png"))
            browser.phone(driver, 390, 844)
            continue
        if shots["phone_play.png"] and not shots["phone_trick.png"]:
            browser.wait_for(driver, "#trick.done .slot.winner", 60)
            driver.save_screenshot(str(folder / "phone_trick.png"))
            shots["phone_trick.png"] = True
        browser.moved(driver, state["seq"])
    browser.idle(driver)
    driver.save_screenshot(str(folder / "phone_end.png"))


def _phone_advice(driver, url: str, folder: Path) -> None:
    """The advisor's answer and the chart lookup on a phone (390 x 844)."""
    browser.phone(driver, 390, 844)
    browser.ask_advice(driver, url, HAND, trump="S", deals=2000, play="expert",
                       declarer=3, bids="6")
    driver.execute_script("document.getElementById('result').scrollIntoView()")
    driver.save_screenshot(str(folder / "phone_advisor.png"))
    _lookup(driver, url)
    driver.execute_script("document.getElementById('answer').scrollIntoView()")
    driver.save_screenshot(str(folder / "phone_charts.png"))


def _lookup(driver, url: str) -> None:
    """The charts page: the hand tapped in, declarer seat 3 who bid 6, looked up."""
    from selenium.webdriver.common.by import By

    driver.get(url + "/charts")
    browser.wait_for(driver, "#cells td")
    for c in HAND:
        driver.find_element(By.CSS_SELECTOR, f'#picker button[data-card="{c}"]').click()
    driver.find_element(By.ID, "declarer").send_keys("3")
    driver.find_element(By.ID, "bids").send_keys("6")
    driver.find_element(By.ID, "lookupgo").click()
    browser.wait_for(driver, "#answer", 30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default", help="(not used)")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--no-progress", action="store_true", help="(nothing to show)")
    args = parser.parse_args(argv)
    if browser.chromium() is None:
        print("web_screenshots: no chromium and chromedriver (apt-get install chromium "
              "chromium-driver)", file=sys.stderr)
        return 1
    out = Path(args.out)
    folder = out / "web"
    folder.mkdir(parents=True, exist_ok=True)
    app = create_app(max_deals=50_000, reports={"results": out}, workers=2)
    with LocalServer(app) as url, browser.open_browser(WIDTH, 1000) as driver:
        browser.ask_advice(driver, url, HAND, trump="S", deals=2000, play="expert",
                           declarer=3, bids="6")
        _shot(driver, folder / "advisor.png")
        browser.play_deal(driver, url, seat=0, seed=2, spec="heuristic/expert",
                          try_illegal=False, snapshot=lambda: _shot(driver, folder / "play.png"))
        _shot(driver, folder / "play_end.png")
        _phone(driver, url, folder)
        _phone_advice(driver, url, folder)
        browser.desktop(driver)
        driver.set_window_size(WIDTH, 1000)
        _lookup(driver, url)
        _shot(driver, folder / "charts.png")
        browser.open_chart(driver, url, "results/bid_chart/report.md")
        _shot(driver, folder / "report.png")
    (folder / "README.md").write_text(
        "# The web page: screenshots\n\n"
        "Made by `scripts/web_screenshots.py` (part of `make results`): `whist-sim serve`'s app "
        "on a local port, driven by the system's headless Chromium. Start it yourself with "
        "`whist-sim serve` and open http://127.0.0.1:8000 (docs/WEB.md).\n\n"
        "## Advisor\n\nThe hand `AKQ2.K3.QJ54.872` entered by clicking its cards; trump spades, "
        "declarer seat 3, who bid 6; 2,000 sampled deals, expert play, seed 0: the answer first "
        "as a sentence (the bid, how often it is made, how much worse the runner-up is), the "
        "close call when it is one, whether it was checked against search, then the chart and "
        "the tables. On a phone (390 x 844), the answer as the screen shows it.\n\n"
        "![advisor](advisor.png)\n\n![the advisor on a phone](phone_advisor.png)\n\n"
        "## Play\n\nSeat 0 against three heuristic/expert bots, game seed 2, the first deal "
        "played by clicking (a pass in the auction when allowed, the first legal contract and "
        "card): mid-deal, the legal cards raised and framed, and at the end, with the "
        "running totals and the record to download.\n\n![play](play.png)\n\n"
        "![the deal over](play_end.png)\n\n"
        "## Play on a phone\n\nThe same page at 390 x 844 CSS pixels with touch (Chromium's "
        "device emulation), exactly what the screen shows: the set-up (opponents by level), "
        "seat 1 against the \"club player\" bots (`cautious/expert`), game seed 5, played by "
        "taps, two a move (\"tap twice to play\", on by default on a touch screen): mid-deal "
        "with a card picked by the first tap (the table, the hand in two rows of 44 px cards "
        "and the choices on one screen), a finished trick with its winner marked, a card that "
        "may not be played refused in words, the deal over, and the same table held sideways "
        "(844 x 390: the table beside the hand and the choices).\n\n"
        "![set-up on a phone](phone_setup.png) ![mid-deal on a phone](phone_play.png) "
        "![a finished trick](phone_trick.png) ![a card refused](phone_refused.png) "
        "![the deal over on a phone](phone_end.png)\n\n"
        "![held sideways](phone_landscape.png)\n\n"
        "## Charts\n\nThe same hand looked up in the bid chart (its cell's best bid and "
        "runner-up, the link to the full advice, the chart as a table with the hand's cell "
        "framed), on a desktop and on a phone; then the bid charts' report "
        "(`results/bid_chart/report.md`).\n\n![charts](charts.png)\n\n"
        "![the chart lookup on a phone](phone_charts.png)\n\n![a report](report.png)\n",
        encoding="utf-8")
    print(f"web_screenshots: wrote {folder}/advisor.png, play.png, play_end.png, "
          "charts.png, report.png, phone_*.png, README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
