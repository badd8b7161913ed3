"""Screenshots of the web page (``whist-sim serve``, docs/WEB.md) in the system's headless
Chromium: the advisor with its advice, a deal played to the end, and a chart of the reports.

    python scripts/web_screenshots.py --data data/default --out results [--no-progress]

Writes ``RESULTS/web/advisor.png``, ``play.png`` (mid-deal), ``play_end.png`` (the deal
over), ``charts.png`` (a desktop window, 1280 px wide), ``phone_setup.png``,
``phone_play.png``, ``phone_trick.png`` (a finished trick with its winner) and
``phone_end.png`` (a phone, 390 x 844 CSS pixels, what the screen shows) and ``README.md``
(what each shows and how it was made). The server is the app of ``whist-sim serve`` on a free
local port; its charts page browses ``RESULTS`` itself. The advisor asks the hand of
docs/ADVISOR.md (``AKQ2.K3.QJ54.872``, trump spades, declarer seat 3 at 6) on 2,000 sampled
deals with expert play, seed 0; the play page deals game seed 2 to seat 0 against
heuristic/expert bots and plays the seat by clicking (browser.play_deal); the phone deals
seed 5 to seat 1 against the "club player" bots and plays it by taps. Needs the ``chromium``
and ``chromium-driver`` OS packages (nothing is downloaded). ``--data`` is accepted for
``make results`` and not used.
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
    """A deal on a phone (390 x 844): the set-up, mid-deal, a finished trick, the end."""
    from selenium.webdriver.common.by import By

    browser.phone(driver, 390, 844)
    driver.get(url + "/play")
    driver.execute_script("localStorage.setItem('whist-anim', 'normal')")
    driver.get(url + "/play")
    browser.wait_for(driver, "#levels input")
    driver.save_screenshot(str(folder / "phone_setup.png"))
    browser.open_table(driver, url, seat=1, seed=5, level="club player", speed="normal")
    shots = {"phone_play.png": False, "phone_trick.png": False}
    for _ in range(300):
        browser.idle(driver)
        kind, todo = browser.next_choice(driver)
        if kind == "over":
            break
        state = browser.table_state(driver)
        if kind == "card" and state["tricks"] >= 3 and not shots["phone_play.png"]:
            driver.save_screenshot(str(folder / "phone_play.png"))
            shots["phone_play.png"] = True
        for item in todo:
            (driver.find_element(By.CSS_SELECTOR, item) if isinstance(item, str)
             else item).click()
        if shots["phone_play.png"] and not shots["phone_trick.png"]:
            browser.wait_for(driver, "#trick.done .slot.winner", 60)
            driver.save_screenshot(str(folder / "phone_trick.png"))
            shots["phone_trick.png"] = True
        browser.moved(driver, state["seq"])
    browser.idle(driver)
    driver.save_screenshot(str(folder / "phone_end.png"))


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
        browser.desktop(driver)
        driver.set_window_size(WIDTH, 1000)
        browser.open_chart(driver, url, "results/bid_chart/report.md")
        _shot(driver, folder / "charts.png")
    (folder / "README.md").write_text(
        "# The web page: screenshots\n\n"
        "Made by `scripts/web_screenshots.py` (part of `make results`): `whist-sim serve`'s app "
        "on a local port, driven by the system's headless Chromium. Start it yourself with "
        "`whist-sim serve` and open http://127.0.0.1:8000 (docs/WEB.md).\n\n"
        "## Advisor\n\nThe hand `AKQ2.K3.QJ54.872` entered by clicking its cards; trump spades, "
        "declarer seat 3, who bid 6; 2,000 sampled deals, expert play, seed 0.\n\n"
        "![advisor](advisor.png)\n\n"
        "## Play\n\nSeat 0 against three heuristic/expert bots, game seed 2, the first deal "
        "played by clicking (a pass in the auction when allowed, the first legal contract and "
        "card): mid-deal, the legal cards raised and framed, and at the end, with the "
        "running totals and the record to download.\n\n![play](play.png)\n\n"
        "![the deal over](play_end.png)\n\n"
        "## Play on a phone\n\nThe same page at 390 x 844 CSS pixels with touch (Chromium's "
        "device emulation), exactly what the screen shows: the set-up (opponents by level), "
        "seat 1 against the \"club player\" bots (`cautious/expert`), game seed 5, played by "
        "taps: mid-deal (the table, the hand and the choices on one screen), a finished trick "
        "with its winner marked, and the deal over.\n\n"
        "![set-up on a phone](phone_setup.png) ![mid-deal on a phone](phone_play.png) "
        "![a finished trick](phone_trick.png) ![the deal over on a phone](phone_end.png)\n\n"
        "## Charts\n\nThe bid charts' report (`results/bid_chart/report.md`) on the charts "
        "page.\n\n![charts](charts.png)\n", encoding="utf-8")
    print(f"web_screenshots: wrote {folder}/advisor.png, play.png, play_end.png, "
          "phone_*.png, charts.png, README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
