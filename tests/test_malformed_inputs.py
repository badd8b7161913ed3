"""Malformed input, as a careless or hostile user types it, across every command: each one is
refused with its exit status and exactly one line on stderr, ``Error: ...``, that names the
option, the field or the file at fault; none prints a traceback. (``replay`` reports a refused
record in its table instead, by its contract: exit 1 and the file's ``REFUSED`` row.)

The inputs are chosen so that the checks run before any compile: validation comes first."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim.interfaces.cli import main

SEATS4 = "heuristic,heuristic,heuristic,heuristic"
HAND = "AKQ2.K3.QJ54.872"
BIG = "1" + "0" * 30

# ------------------------------------------------------------------------------- the files

RULES_FILES = {
    "latin1.toml": "made_bonus = 10  # caf\xe9\n".encode("latin-1"),
    "syntax.toml": b"made_bonus = \n",
    "unknown.toml": b"jokers = 2\n",
    "range.toml": b"made_bonus = 9223372036854775807\n",
    "negative.toml": b"miss_per_trick = -5\n",
    "type.toml": b'made_bonus = "ten"\n',
    "bool.toml": b"frisch = 1\n",
    "dirs.toml": b'frisch_directions = ["left", "up", "left"]\n',
    "players.toml": b"players = 5\n",
    "huge.toml": b"# padding\n" * 20_000,
    "deep.toml": b"made_bonus = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "float.toml": b"target = 1.5\n",
}
RULES_FRAGMENT = {
    "latin1.toml": "not a UTF-8 text file", "syntax.toml": "not a valid TOML file",
    "unknown.toml": "jokers", "range.toml": "made_bonus must be in -1000..1000",
    "negative.toml": "miss_per_trick", "type.toml": "made_bonus must be a whole number",
    "bool.toml": "frisch must be true or false", "dirs.toml": "'up'",
    "players.toml": "players must be 3 or 4", "huge.toml": "at most",
    "deep.toml": "nested too deeply", "float.toml": "target must be a whole number",
}

GOOD_DEAL = {"seed": 1, "deal": 0}  # completed by the fixture from `deal --json`


def _records(good: dict) -> dict[str, tuple[bytes, str]]:
    """Record files for replay: name -> (bytes, what its REFUSED row must name)."""
    def j(obj) -> bytes:
        return json.dumps(obj).encode()

    game = {"deals": [good], "totals": [0, 0, 0, 0]}
    return {
        "truncated.json": (b'{"seed": 1,', "not valid JSON"),
        "empty.json": (b"", "not valid JSON"),
        "deep.json": (b"[" * 100_000 + b"]" * 100_000, "nested deeper"),
        "digits.json": (b'{"seed": ' + b"7" * 5000 + b"}", "5,000 digits"),
        "nan.json": (b'{"seed": NaN}', "NaN"),
        "latin1.json": ('{"seed": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
        "list.json": (b"[1, 2]", "object"),
        "totals-number.json": (j({**game, "totals": 5}), "totals"),
        "totals-null.json": (j({**game, "totals": None}), "totals"),
        "winners-number.json": (j({**game, "winners": 1}), "winners"),
        "running-number.json": (j({**game, "running_totals": 3}), "running_totals"),
        "running-null-entry.json": (j({**game, "running_totals": [None]}), "running_totals"),
        "deals-not-list.json": (j({"deals": 3}), "deals"),
        "deals-empty.json": (j({"deals": []}), "deals"),
        "game-unknown.json": (j({**game, "seet": 1}), "seet"),
        "rules-range.json": (j({**good, "rules": {"made_bonus": 2**63}}), "made_bonus"),
        "rules-type.json": (j({**good, "rules": 7}), "rules"),
        # PBN boards (a whole board as `export RECORD --pbn` writes it, then edited) and the
        # fields of deal and game records, each refusal naming its field, tag and line
        "pbn-53rd-card.pbn": (_pbn(good, 'C9 S3"]', 'C9 S3 HA"]'),
                              "WhistPlay: play[52]: the deal is over after 52 cards"),
        "pbn-14th-trick.pbn": (_pbn(good, 'C9 S3"]', 'C9 S3 C6 H7 C9 S3"]'),
                               "WhistPlay: play[52]: the deal is over"),
        "pbn-card-twice.pbn": (_pbn(good, "N:JT9.KJ742", "N:JT9.KJ743"),
                               "Deal: PBN deal, W: card(s) 3H already in another hand"),
        "pbn-14-cards.pbn": (_pbn(good, "N:JT9.KJ742.KJ.AK5 K854.", "N:JT94.KJ742.KJ.AK5 K85."),
                             "Deal: hands[0]: has 14 cards, expected 13"),
        "pbn-auction-seat.pbn": (_pbn(good, '[WhistAuction "E:', '[WhistAuction "S:'),
                                 "WhistAuction: the first call is by E, the dealer N's left"),
        "pbn-auction-x.pbn": (_pbn(good, '[WhistAuction "E:', '[WhistAuction "X:'),
                              "WhistAuction: PBN seat 'X'"),
        "pbn-dealer-x.pbn": (_pbn(good, '[WhistDealer "N"]', '[WhistDealer "X"]'),
                             "WhistDealer: PBN seat 'X'"),
        "pbn-leader.pbn": (_pbn(good, '[WhistPlay "W:', '[WhistPlay "N:'),
                           "WhistPlay: the first card is led by N, but the declarer W leads"),
        "pbn-contract.pbn": (_pbn(good, '[WhistContract "7D"]', '[WhistContract "7S"]'),
                             "WhistContract says 7S, but the calls and cards give 7D"),
        "pbn-bridge-contract.pbn": (_pbn(good, '[Contract "?"]', '[Contract "7S"]'),
                                    "Contract says 7S, but the calls and cards give 7D"),
        "pbn-contracts.pbn": (_pbn(good, '[WhistContracts "3 1 3 7"]',
                                   '[WhistContracts "3 1 3 6"]'),
                              "WhistContracts: contracts[3]: the declarer's contract 6 is below"),
        "pbn-outcome-only.pbn": (_pbn(good, "dataset"), "hold the outcome only (exported from a "
                                                        "dataset): no auction or play to replay"),
        "pbn-game-first-dealer.pbn": (_pbn(good, '[WhistGameFirstDealer "0"]',
                                           '[WhistGameFirstDealer "7"]'),
                                      "WhistGameFirstDealer: game.first_dealer: must be a seat"),
        "seed-text.json": (j({**good, "seed": "x"}), 'seed: must be a whole number >= 0, got "x"'),
        "comment-number.json": (j({**good, "comment": 5}), "comment: must be a text, got 5"),
        "policies-numbers.json": (j({**good, "policies": [1]}), "policies: must be a list of text"),
        "removed-card-bad.json": (j({**good, "removed_card": "ZZ"}), "removed_card: card 'ZZ'"),
        "game-first-dealer-x.json": (j({"deals": [good], "game": {"first_dealer": "x"}}),
                                     'game.first_dealer: must be a seat in 0..3, got "x"'),
        "game-first-dealer-7.json": (j({"deals": [good], "game": {"first_dealer": 7}}),
                                     "game.first_dealer: must be a seat in 0..3, got 7"),
        "game-seed-text.json": (j({"deals": [good], "game": {"seed": "x"}}),
                                'game.seed: must be a whole number >= 0, got "x"'),
        "game-target-text.json": (j({"deals": [good], "game": {"target": "x"}}),
                                  'game.target: the target must be a whole number, got "x"'),
        "game-seats-number.json": (j({"deals": [good], "game": {"seats": 3}}),
                                   "game.seats: must be a list of texts, got 3"),
        "game-unknown-field.json": (j({"deals": [good], "game": {"first_dealr": 0}}),
                                    "game: unknown field(s): first_dealr"),
    }


def _pbn(good: dict, old: str, new: str = "") -> bytes:
    """``good`` as a PBN board (a game of one deal when ``old`` is a game's tag; the outcome
    only, as `export DIR --pbn` writes a dataset's deal, for ``"dataset"``) with ``old``
    replaced by ``new``; nothing for the table's names (``good`` empty)."""
    if not good:
        return b""
    from whist_sim.core.cards import parse_hand
    from whist_sim.core.pbn import board_tags, format_pbn, whist_tags
    from whist_sim.engine.pbn_record import game_boards, record_board

    if old == "dataset":
        hands = [parse_hand(h) for h in good["hands"]]
        return format_pbn([board_tags(hands, 1, extra=whist_tags(seed=1, deal=0,
                                                                 hands="play"))]).encode()
    if "WhistGame" in old:
        text = format_pbn(game_boards({"deals": [good], "game": {"first_dealer": 0}}))
    else:
        text = format_pbn([record_board(good)])
    assert old in text, old
    return text.replace(old, new, 1).encode()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """The paths of every input file, by a short name used in the table as ``{name}``."""
    root = tmp_path_factory.mktemp("malformed")
    out: dict[str, str] = {"tmp": str(root)}
    for name, data in RULES_FILES.items():
        (root / name).write_bytes(data)
        out[name] = str(root / name)
    (root / "rules-dir").mkdir()
    out["rules-dir"] = str(root / "rules-dir")
    out["missing"] = str(root / "no-such-file")
    r = CliRunner().invoke(main, ["deal", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    good = json.loads(r.stdout)
    (root / "good.json").write_text(r.stdout)
    out["good.json"] = str(root / "good.json")
    for name, (data, _) in _records(good).items():
        (root / name).write_bytes(data)
        out[name] = str(root / name)
    # datasets with a broken manifest (no chunk needed: the manifest is read first)
    manifest = {"format": "whist-sim-dataset", "format_version": 1, "seed": 1, "deals": 10,
                "chunk_size": 10, "n_chunks": 1, "rules": {}, "bid": ["random"] * 4,
                "play": ["random"] * 4, "store_dealt": False, "dd": None,
                "status": "complete", "chunk_files": "chunk-{index:05d}.parquet",
                "sessions": []}
    broken = {
        "ds-empty": None,
        "ds-syntax": b"{",
        "ds-latin1": '{"format": "caf\xe9"}'.encode("latin-1"),
        "ds-list": b"[]",
        "ds-format": json.dumps({**manifest, "format": "other"}).encode(),
        "ds-nchunks-str": json.dumps({**manifest, "n_chunks": "1"}).encode(),
        "ds-nchunks-missing": json.dumps({k: v for k, v in manifest.items()
                                          if k != "n_chunks"}).encode(),
        "ds-nchunks-wrong": json.dumps({**manifest, "n_chunks": 2}).encode(),
        "ds-seed-str": json.dumps({**manifest, "seed": "1"}).encode(),
        "ds-deals-neg": json.dumps({**manifest, "deals": -10}).encode(),
        "ds-rules-bad": json.dumps({**manifest, "rules": {"made_bonus": 40000}}).encode(),
        "ds-bid-short": json.dumps({**manifest, "bid": ["random"]}).encode(),
        "ds-deep": b"[" * 100_000 + b"]" * 100_000,
    }
    for name, data in broken.items():
        d = root / name
        d.mkdir()
        if data is not None:
            (d / "_manifest.json").write_bytes(data)
        out[name] = str(d)
    (root / "a-file").write_text("x")
    out["a-file"] = str(root / "a-file")
    (root / "hands.txt").write_text("0:A... K... Q... J...\n0:AK... Q... J... T...\n")
    out["hands.txt"] = str(root / "hands.txt")
    return out


# ------------------------------------------------------------------------------- the table

#: the arguments each command needs besides the malformed one (a rule option is checked after
#: them only when it contradicts another option)
BASE = {
    "advise": [HAND],
    "bid-chart": ["--out", "{tmp}/bc"],
    "deal": ["--seed", "1"],
    "game": ["--seed", "1", "--seats", SEATS4],
    "play": ["--seat", "0", "--seats", SEATS4],
    "replay": ["{good.json}"],
    "simulate": ["--deals", "10", "--seed", "1", "--out", "{tmp}/sim"],
    "tournament": ["--strategies", "heuristic,random", "--deals", "10", "--seed", "1",
                   "--out", "{tmp}/tour"],
}

RULE_FLAGS = [
    (["--made-bonus", "40000"], 2, "--made-bonus"),
    (["--zero-under", "x"], 2, "--zero-under"),
    (["--zero-fail-first", "-40000"], 2, "--zero-fail-first"),
    (["--players", "5"], 2, "--players"),
    (["--bid-order", "nope"], 2, "--bid-order"),
    (["--target", "0"], 2, "--target"),
    (["--frisch-directions", "left,up,left"], 2, "--frisch-directions"),
    (["--players", "3", "--frisch-directions", "left,across,left"], 2, "--frisch-directions"),
]

CASES: list[tuple[str, list[str], int, str]] = []
for command, base in BASE.items():
    for args, code, fragment in RULE_FLAGS:
        CASES.append((f"{command} {' '.join(args)}", [command, *base, *args], code, fragment))
for command in ("deal", "simulate", "replay", "advise"):
    for name in RULES_FILES:
        CASES.append((f"{command} --rules {name}", [command, *BASE[command], "--rules",
                                                    f"{{{name}}}"], 2, RULES_FRAGMENT[name]))
    CASES.append((f"{command} --rules dir", [command, *BASE[command], "--rules", "{rules-dir}"],
                  2, "--rules"))
    CASES.append((f"{command} --rules missing", [command, *BASE[command], "--rules",
                                                 "{missing}"], 2, "no-such-file"))
    CASES.append((f"{command} --rules ''", [command, *BASE[command], "--rules", ""], 2,
                  "--rules"))

SIM = BASE["simulate"]
TOUR = BASE["tournament"]
CASES += [
    ("top-level unknown command", ["simulatee"], 2, "simulatee"),
    # simulate
    ("simulate --deals 0", ["simulate", "--deals", "0", "--seed", "1", "--out", "{tmp}/s"], 2,
     "--deals"),
    ("simulate --deals huge", ["simulate", "--deals", BIG, "--seed", "1", "--out", "{tmp}/s"], 2,
     "--deals"),
    ("simulate --deals x", ["simulate", "--deals", "x", "--seed", "1", "--out", "{tmp}/s"], 2,
     "--deals"),
    ("simulate --seed -1", ["simulate", "--deals", "5", "--seed", "-1", "--out", "{tmp}/s"], 2,
     "--seed"),
    ("simulate --seed 2**64", ["simulate", "--deals", "5", "--seed", str(2**64), "--out",
                               "{tmp}/s"], 2, "--seed"),
    ("simulate --out ''", ["simulate", "--deals", "5", "--seed", "1", "--out", ""], 2, "--out"),
    ("simulate --out file", ["simulate", "--deals", "5", "--seed", "1", "--out", "{a-file}"], 2,
     "--out"),
    ("simulate --chunk-size 0", [*["simulate"], *SIM[0:], "--chunk-size", "0"], 2,
     "--chunk-size"),
    ("simulate --threads 0", ["simulate", *SIM, "--threads", "0"], 2, "--threads"),
    ("simulate --policy nosuch", ["simulate", *SIM, "--policy", "nosuch"], 2, "nosuch"),
    ("simulate --policy param", ["simulate", *SIM, "--policy", "heuristic:zz=1"], 2, "zz"),
    ("simulate --seats short", ["simulate", *SIM, "--seats", "heuristic,random"], 2,
     "--seats"),
    ("simulate --play nosuch", ["simulate", *SIM, "--play", "nosuch"], 2, "nosuch"),
    ("simulate rollout:n=0", ["simulate", *SIM, "--play", "rollout:n=0"], 2, "n must be in"),
    ("simulate rollout:n=x", ["simulate", *SIM, "--play", "rollout:n=x"], 2, "rollout"),
    ("simulate --policy and --seats", ["simulate", *SIM, "--policy", "random", "--seats",
                                       SEATS4], 2, "--seats"),
    ("simulate --dd-node-limit alone", ["simulate", *SIM, "--dd-node-limit", "5"], 2,
     "--dd-node-limit"),
    ("simulate --dd three players", ["simulate", *SIM, "--dd", "--players", "3"], 2, "--dd"),
    ("simulate --scheduler and --cluster", ["simulate", *SIM, "--scheduler", "tcp://x:1",
                                            "--cluster", "local:2"], 2, "--cluster"),
    ("simulate --cluster bogus", ["simulate", *SIM, "--cluster", "bogus"], 1, "cluster"),
    # deal
    ("deal --seed x", ["deal", "--seed", "x"], 2, "--seed"),
    ("deal --deal -1", ["deal", "--seed", "1", "--deal", "-1"], 2, "--deal"),
    ("deal --dealer 7", ["deal", "--seed", "1", "--dealer", "7"], 2, "--dealer"),
    ("deal --policy nosuch", ["deal", "--seed", "1", "--policy", "nosuch"], 2, "nosuch"),
    ("deal --json --pbn", ["deal", "--seed", "1", "--json", "--pbn"], 2, "--pbn"),
    ("deal rollout:n=0", ["deal", "--seed", "1", "--play", "rollout:n=0"], 2, "n must be in"),
    # game
    ("game --max-deals 0", ["game", "--seed", "1", "--seats", SEATS4, "--max-deals", "0"], 2,
     "--max-deals"),
    ("game --seats short", ["game", "--seed", "1", "--seats", "heuristic,random"], 2, "--seats"),
    ("game --seats nosuch", ["game", "--seed", "1", "--seats", "nosuch,a,b,c"], 2, "nosuch"),
    ("game --seed -1", ["game", "--seed", "-1", "--seats", SEATS4], 2, "--seed"),
    # advise
    ("advise hand short", ["advise", "AKQ"], 1, "hand"),
    ("advise hand 14 cards", ["advise", "AKQ2.K3.QJ54.8765"], 1, "hand"),
    ("advise hand twice", ["advise", "AKQ2.K3.QJ54.877"], 1, "hand"),
    ("advise --bids 6,,3", ["advise", HAND, "--trump", "S", "--bids", "6,,3"], 1, "bids"),
    ("advise --bids x", ["advise", HAND, "--trump", "S", "--bids", "x"], 1, "bids"),
    ("advise --bids 99", ["advise", HAND, "--trump", "S", "--bids", "99"], 1, "bids"),
    ("advise --trump Z", ["advise", HAND, "--trump", "Z"], 1, "trump"),
    ("advise --deals 0", ["advise", HAND, "--deals", "0"], 2, "--deals"),
    ("advise --deals huge", ["advise", HAND, "--deals", BIG], 2, "--deals"),
    ("advise --confidence nan", ["advise", HAND, "--confidence", "nan"], 2, "--confidence"),
    ("advise --confidence 1", ["advise", HAND, "--confidence", "1"], 2, "--confidence"),
    ("advise --seat 9", ["advise", HAND, "--seat", "9"], 1, "seat"),
    ("advise --level 99", ["advise", HAND, "--level", "99"], 1, "level"),
    ("advise rollout:n=0", ["advise", HAND, "--play", "rollout:n=0"], 2, "n must be in"),
    ("advise --constrain bad", ["advise", HAND, "--constrain", "bad"], 1, "bad"),
    ("advise --known bad", ["advise", HAND, "--known", "bad"], 2, "--known"),
    ("advise --screen -1", ["advise", HAND, "--screen", "-1"], 2, "--screen"),
    ("advise --dd-deals alone", ["advise", HAND, "--dd-deals", "5"], 2, "--dd-deals"),
    ("advise --threads 0", ["advise", HAND, "--threads", "0"], 2, "--threads"),
    ("advise --plot ''", ["advise", HAND, "--plot", ""], 2, "--plot"),
    ("advise --check hcp", ["advise", HAND, "--check", "hcp"], 2, "--check"),
    ("advise --check rollout:n=0", ["advise", HAND, "--check", "rollout:n=0"], 2,
     "n must be in"),
    ("advise --check-deals 0", ["advise", HAND, "--check-deals", "0"], 2, "--check-deals"),
    ("advise --check and --no-check", ["advise", HAND, "--check", "rollout:n=4", "--no-check"],
     2, "--no-check"),
    ("advise --bid-policy nosuch", ["advise", HAND, "--bid-policy", "nosuch"], 2, "nosuch"),
    # export
    ("export missing dataset", ["export", "{missing}", "--pbn", "{tmp}/a.pbn"], 1,
     "no-such-file"),
    ("export no manifest", ["export", "{ds-empty}", "--pbn", "{tmp}/a.pbn"], 1, "ds-empty"),
    ("export --pbn ''", ["export", "{ds-empty}", "--pbn", ""], 2, "--pbn"),
    ("export --start -1", ["export", "{ds-empty}", "--pbn", "-", "--start", "-1"], 2,
     "--start"),
    ("export --count -1", ["export", "{ds-empty}", "--pbn", "-", "--count", "-1"], 2,
     "--count"),
    ("export --hands bogus", ["export", "{ds-empty}", "--pbn", "-", "--hands", "bogus"], 2,
     "--hands"),
    ("export manifest n_chunks text", ["export", "{ds-nchunks-str}", "--pbn", "-"], 1,
     "n_chunks"),
    # PBN, game record fields named (export checks a record before writing it)
    ("export game first_dealer x", ["export", "{game-first-dealer-x.json}", "--pbn",
                                    "{tmp}/g.pbn"], 1, "game.first_dealer: must be a seat"),
    ("export game seats number", ["export", "{game-seats-number.json}", "--pbn", "{tmp}/g.pbn"],
     1, "game.seats: must be a list of texts"),
    ("export record seed text", ["export", "{seed-text.json}", "--pbn", "{tmp}/g.pbn"], 1,
     "seed: must be a whole number"),
    # report
    ("report missing dataset", ["report", "{missing}", "--no-progress"], 1, "no-such-file"),
    ("report a file", ["report", "{a-file}", "--no-progress"], 2, "a-file"),
    ("report --dpi 10", ["report", "{ds-empty}", "--dpi", "10"], 2, "--dpi"),
    ("report --out ''", ["report", "{ds-empty}", "--out", ""], 2, "--out"),
    ("report --format bogus", ["report", "{ds-empty}", "--format", "bogus"], 2, "--format"),
    # dd
    ("dd no deal", ["dd"], 2, "DEAL"),
    ("dd bad notation", ["dd", "0:AKQ.xyz - - -"], 2, "DEAL"),
    ("dd unequal hands", ["dd", "0:AK... Q... J... T..."], 2, "same number"),
    ("dd --trump Z", ["dd", "--trump", "Z", "0:AKQ2.K3.QJ54.872 - - -"], 2, "--trump"),
    ("dd --leader 9", ["dd", "--leader", "9", "0:AKQ2.K3.QJ54.872 - - -"], 2, "--leader"),
    ("dd --file missing", ["dd", "--file", "{missing}"], 2, "--file"),
    ("dd --file unequal", ["dd", "--file", "{hands.txt}"], 2, "hands.txt"),
    ("dd --file latin1", ["dd", "--file", "{latin1.toml}"], 2, "latin1.toml"),
    ("dd --min-node-limit bridge", ["dd", "--mode", "bridge", "--min-node-limit", "5",
                                    "0:AKQ2.K3.QJ54.872 - - -"], 2, "--min-node-limit"),
    ("dd --node-limit 0", ["dd", "--node-limit", "0", "0:AKQ2.K3.QJ54.872 - - -"], 2,
     "--node-limit"),
    ("dd --mode bogus", ["dd", "--mode", "bogus", "0:AKQ2.K3.QJ54.872 - - -"], 2, "--mode"),
    # bench
    ("bench --seconds nan", ["bench", "--seconds", "nan"], 2, "--seconds"),
    ("bench --seconds inf", ["bench", "--seconds", "inf"], 2, "--seconds"),
    ("bench --seconds 0", ["bench", "--seconds", "0"], 2, "--seconds"),
    ("bench --seconds -1", ["bench", "--seconds", "-1"], 2, "--seconds"),
    ("bench --threads 0", ["bench", "--threads", "0"], 2, "--threads"),
    ("bench --only nosuch", ["bench", "--only", "nosuch"], 2, "--only"),
    # bid-chart
    ("bid-chart --hands 0", ["bid-chart", *BASE["bid-chart"], "--hands", "0"], 2, "--hands"),
    ("bid-chart --deals 0", ["bid-chart", *BASE["bid-chart"], "--deals", "0"], 2, "--deals"),
    ("bid-chart --chunk-size 0", ["bid-chart", *BASE["bid-chart"], "--chunk-size", "0"], 2,
     "--chunk-size"),
    ("bid-chart --out ''", ["bid-chart", "--out", ""], 2, "--out"),
    ("bid-chart --bid nosuch", ["bid-chart", *BASE["bid-chart"], "--bid", "nosuch"], 2,
     "nosuch"),
    ("bid-chart --play nosuch", ["bid-chart", *BASE["bid-chart"], "--play", "nosuch"], 2,
     "nosuch"),
    ("bid-chart --seed -1", ["bid-chart", *BASE["bid-chart"], "--seed", "-1"], 2, "--seed"),
    ("bid-chart scheduler and cluster", ["bid-chart", *BASE["bid-chart"], "--scheduler",
                                         "tcp://x:1", "--cluster", "local:2"], 2, "--cluster"),
    # tournament
    ("tournament one entrant", ["tournament", "--strategies", "heuristic", "--deals", "5",
                                "--seed", "1", "--out", "{tmp}/t"], 2, "--strategies"),
    ("tournament empty entrant", ["tournament", "--strategies", "heuristic,,random", "--deals",
                                  "5", "--seed", "1", "--out", "{tmp}/t"], 2, "--strategies"),
    ("tournament nosuch", ["tournament", "--strategies", "nosuch,heuristic", "--deals", "5",
                           "--seed", "1", "--out", "{tmp}/t"], 2, "nosuch"),
    ("tournament --deals 0", ["tournament", "--strategies", "heuristic,random", "--deals", "0",
                              "--seed", "1", "--out", "{tmp}/t"], 2, "--deals"),
    ("tournament --deals huge", ["tournament", "--strategies", "heuristic,random", "--deals",
                                 BIG, "--seed", "1", "--out", "{tmp}/t"], 2, "--deals"),
    ("tournament --rotations 5", ["tournament", *TOUR, "--rotations", "5"], 1, "rotations"),
    ("tournament --sprt bad", ["tournament", *TOUR, "--sprt", "bad"], 1, "--sprt"),
    ("tournament --design bogus", ["tournament", *TOUR, "--design", "bogus"], 2, "--design"),
    ("tournament --games -1", ["tournament", *TOUR, "--games", "-1"], 2, "--games"),
    ("tournament --out ''", ["tournament", "--strategies", "heuristic,random", "--deals", "5",
                             "--seed", "1", "--out", ""], 2, "--out"),
    ("tournament --format bogus", ["tournament", *TOUR, "--format", "bogus"], 1, "--format"),
    ("tournament rollout:n=0", ["tournament", *TOUR, "--play", "rollout:n=0"], 2,
     "n must be in"),
    ("tournament --chunk-size 0", ["tournament", *TOUR, "--chunk-size", "0"], 2,
     "--chunk-size"),
    ("tournament --check nosuch", ["tournament", *TOUR, "--check", "nosuch"], 2, "nosuch"),
    ("tournament --check-deals 0", ["tournament", *TOUR, "--check-deals", "0"], 2,
     "--check-deals"),
    ("tournament --no-check --check-deals", ["tournament", *TOUR, "--no-check",
                                             "--check-deals", "5"], 2, "--check-deals"),
    # serve
    ("serve --port 70000", ["serve", "--port", "70000"], 2, "--port"),
    ("serve --workers 0", ["serve", "--workers", "0"], 2, "--workers"),
    ("serve --max-deals 0", ["serve", "--max-deals", "0"], 2, "--max-deals"),
    ("serve --reports missing", ["serve", "--reports", "{missing}"], 2, "--reports"),
    # serve: its address, its state folder (refused before it says where to open the page)
    ("serve --host 999.1.1.1", ["serve", "--host", "999.1.1.1", "--state-dir",
                                "{tmp}/serve-state"], 2, "--host 999.1.1.1: not a name or address"),
    ("serve --host nosuch.invalid", ["serve", "--host", "nosuch.invalid", "--state-dir",
                                     "{tmp}/serve-state"], 2, "--host nosuch.invalid: not a"),
    ("serve --state-dir uncreatable", ["serve", "--state-dir", "{a-file}/tables"], 2,
     "/a-file/tables: cannot create the folder"),
    ("serve --state-dir ''", ["serve", "--state-dir", ""], 2, "--state-dir '': give a folder"),
    # play
    ("play --seat 9", ["play", "--seat", "9", "--seats", SEATS4], 2, "--seat"),
    ("play --seats short", ["play", "--seat", "0", "--seats", "heuristic,random"], 2,
     "--seats"),
    ("play --record ''", ["play", "--seat", "0", "--record", ""], 2, "--record"),
    ("play --dealer 9", ["play", *BASE["play"], "--dealer", "9"], 2, "--dealer"),
    # runs (run sizes that cannot fit are refused before anything is allocated;
    # a failed --plot write is an error)
    ("simulate --chunk-size 1 of 10^12 deals", ["simulate", "--deals", "1000000000000",
                                                "--seed", "1", "--chunk-size", "1", "--out",
                                                "{tmp}/sim-huge"], 1,
     "--deals 1,000,000,000,000 in chunks of --chunk-size 1 make 1,000,000,000,000 chunks; a "
     "run has at most 2,000,000: give --chunk-size 500,000 or more"),
    ("tournament --chunk-size 1 of 10^12 deals", ["tournament", "--strategies",
                                                  "heuristic,random", "--deals",
                                                  "1000000000000", "--seed", "1",
                                                  "--chunk-size", "1", "--out", "{tmp}/t-huge"],
     1, "in chunks of --chunk-size 1 make 1,000,000,000,000 chunks; a run has at most"),
    ("bid-chart --chunk-size 1 of 10^7 hands per cell", ["bid-chart", "--out", "{tmp}/bc-huge",
                                                          "--hands", "10000000000",
                                                          "--min-hands", "10000000",
                                                          "--chunk-size", "1"], 1,
     "--min-hands 10,000,000 (of --hands 10,000,000,000) may evaluate up to"),
    ("advise --plot /dev/full", ["advise", HAND, "--trump", "S", "--deals", "20", "--no-check",
                                 "--plot", "/dev/full"], 1,
     "cannot write the plot (--plot) /dev/full: No space left on device"),
    ("advise --plot .xyz", ["advise", HAND, "--plot", "{tmp}/advice.xyz"], 2,
     "Invalid value for --plot"),
]
for name in ("ds-empty", "ds-syntax", "ds-latin1", "ds-list", "ds-format", "ds-nchunks-str",
             "ds-nchunks-missing", "ds-nchunks-wrong", "ds-seed-str", "ds-deals-neg",
             "ds-rules-bad", "ds-bid-short", "ds-deep"):
    CASES.append((f"report {name}", ["report", f"{{{name}}}", "--no-progress"], 1, name))


def fill(args: list[str], files: dict[str, str]) -> list[str]:
    out = []
    for a in args:
        for key, path in files.items():
            a = a.replace(f"{{{key}}}", path)
        out.append(a)
    return out


def test_the_table_is_large_and_names_each_input_once():
    assert len(CASES) + len(_records({})) >= 150
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_input_is_refused_in_one_line(case, files):
    _, args, code, fragment = case
    r = CliRunner().invoke(main, fill(args, files))
    assert r.exit_code == code, (r.exit_code, r.output, r.exception)
    assert "Traceback" not in r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("name", list(_records({})))
def test_replay_refuses_a_malformed_record_in_its_table(name, files):
    _, fragment = _records({})[name]
    r = CliRunner().invoke(main, ["replay", files[name]])
    assert r.exit_code == 1, (r.output, r.exception)
    assert r.stderr == "" and "Traceback" not in r.output
    row = [line for line in r.stdout.splitlines() if name in line]
    assert len(row) == 1 and "REFUSED" in row[0] and fragment in row[0], r.stdout


def test_replay_of_an_endless_file_is_refused_without_reading_it_all():
    r = CliRunner().invoke(main, ["replay", "/dev/zero"])
    assert r.exit_code == 1 and "larger than" in r.stdout and r.stderr == ""
