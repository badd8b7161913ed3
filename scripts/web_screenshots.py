"""Screenshots of the web page (``whist-sim serve``, docs/WEB.md) in the system's headless
Chromium: the advisor with its advice, a deal played to the end, and a chart of the reports.

    python scripts/web_screenshots.py --data data/default --out results [--no-progress]

Writes ``RESULTS/web/advisor.png``, ``play.png`` (mid-deal), ``play_end.png`` (the deal
over), ``charts.png`` and ``README.md`` (what each
shows and how it was made). The server is the app of ``whist-sim serve`` on a free local port;
its charts page browses ``RESULTS`` itself. The advisor asks the hand of docs/ADVISOR.md
(``AKQ2.K3.QJ54.872``, trump spades, declarer seat 3 at 6) on 2,000 sampled deals with expert
play, seed 0; the play page deals game seed 2 to seat 0 against heuristic/expert bots and plays
the seat by clicking (browser.play_deal). Needs the ``chromium`` and ``chromium-driver`` OS
packages (nothing is downloaded). ``--data`` is accepted for ``make results`` and not used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from whist_sim.web import browser
from whist_sim.web.app import create_app
from whist_sim.web.server import LocalServer

HAND = ["AS", "KS", "QS", "2S", "KH", "3H", "QD", "JD", "5D", "4D", "8C", "7C", "2C"]
WIDTH = 1280
MAX_HEIGHT = 2400  # pixels of a screenshot at most (a long report is cut there)


def _shot(driver, path: Path) -> None:
    """The whole page, not only the window."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(WIDTH, max(700, min(int(height) + 40, MAX_HEIGHT)))
    driver.save_screenshot(str(path))
    driver.set_window_size(WIDTH, 1000)


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
        "## Charts\n\nThe bid charts' report (`results/bid_chart/report.md`) on the charts "
        "page.\n\n![charts](charts.png)\n", encoding="utf-8")
    print(f"web_screenshots: wrote {folder}/advisor.png, play.png, play_end.png, charts.png, "
          "README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
