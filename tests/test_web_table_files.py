"""The table files of the play page (``serve --state-dir``, docs/WEB.md): nothing is ever lost.

* An action that cannot be saved (no permission, a full disk, the folder gone) is refused with a
  503 that says the game could not be saved and the action was not made, and the table stays
  exactly as it was, in memory and on disk; once the disk is back the same action is accepted.
* A table file that is not UTF-8, not JSON, nested too deep, a list, another program's object or
  a table with a field out of its range is refused with a 400 naming the file, and the file is
  left as it is.
* ``serve`` refuses a state folder it cannot create or write before it starts, a state folder
  another ``serve`` holds (naming that server's pid), and a port in use, each in one line naming
  the option.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import socket

import pytest
from click.testing import CliRunner
from webcall import call

from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.interfaces.web import tables as tables_module
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.server import LocalServer
from whist_sim.interfaces.web.tables import (
    GameTable,
    GameTables,
    SaveError,
    TableFileError,
    TableStore,
)

CHEAP = "random/random"  # the cheapest bots
ERRORS = {
    "no permission": OSError(errno.EACCES, "Permission denied"),
    "a full disk": OSError(errno.ENOSPC, "No space left on device"),
}


def first_move(v: dict) -> str:
    """A legal move of the person in view ``v``."""
    if v["phase"] == "frisch":
        return " ".join(c["text"] for c in v["hand"][-3:])
    if v["phase"] == "play":
        return next(c["text"] for c in v["hand"] if c["legal"])
    texts = [m["text"] for m in v["legal"]]
    return "pass" if "pass" in texts else texts[0]


def failing_open(error: OSError):
    """``open`` of the table store as a failing disk makes it: writing raises ``error``."""
    def fake(path, mode="r", *args, **kwargs):
        if "w" in mode:
            raise OSError(error.errno, error.strerror, str(path))
        return open(path, mode, *args, **kwargs)
    return fake


def folder_state(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("why", list(ERRORS))
def test_a_move_that_cannot_be_saved_is_refused_and_the_table_is_as_it_was(tmp_path, why,
                                                                          monkeypatch, caplog):
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, v = call(url, "/api/play", {"seat": 0, "seed": 1, "seats": CHEAP})
        status, v = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v), "seq": 0})
        assert status == 200 and v["seq"] == 1
        on_disk = folder_state(tmp_path)
        monkeypatch.setattr(tables_module, "open", failing_open(ERRORS[why]), raising=False)
        with caplog.at_level(logging.INFO, logger="whist_sim.interfaces.web"):
            status, err = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v),
                                                                  "seq": 1})
        assert status == 503, err
        assert err["error"] == (f"the game could not be saved in {tmp_path} "
                                f"({ERRORS[why].strerror}), so your move was not made: the "
                                "table is as it was")
        lines = [r.getMessage() for r in caplog.records if r.name == "whist_sim.interfaces.web"]
        assert len(lines) == 1 and "(503)" in lines[0] and "\n" not in lines[0]
        assert call(url, f"/api/play/{v['id']}")[1] == v  # seq 1 still, nothing moved
        assert folder_state(tmp_path) == on_disk  # the file as it was, no temporary file left
        monkeypatch.undo()  # the disk is back: the same move, at the same move number, is made
        status, after = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v),
                                                                "seq": 1})
        assert status == 200 and after["seq"] == 2
        assert json.loads((tmp_path / f"{v['id']}.json").read_text())["seq"] == 2


def test_a_state_folder_that_went_away_refuses_the_move_and_keeps_the_table(tmp_path):
    state = tmp_path / "state"
    with LocalServer(create_app(workers=2, state_dir=state)) as url:
        status, v = call(url, "/api/play", {"seat": 0, "seed": 2, "seats": CHEAP})
        state.rename(tmp_path / "moved")
        state.write_text("not a folder any more")  # as a folder no one can write, even root
        status, err = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v), "seq": 0})
        assert status == 503 and err["error"] == (
            f"the game could not be saved in {state} (it is not a folder any more), so your "
            "move was not made: the table is as it was")
        assert call(url, f"/api/play/{v['id']}")[1] == v
        status, err = call(url, "/api/play", {"seat": 0, "seed": 3, "seats": CHEAP})
        assert status == 503 and "the new game was not started" in err["error"]
        state.unlink()
        (tmp_path / "moved").rename(state)
        status, after = call(url, f"/api/play/{v['id']}/move", {"move": first_move(v),
                                                                "seq": 0})
        assert status == 200 and after["seq"] == 1


def test_a_refused_action_or_save_leaves_the_table_as_it_was_in_memory():
    """The transaction under the API: the action is made on a copy, which becomes the table only
    once saved; a refused move or a failed save leave the table's state, totals and move number
    untouched."""
    class BrokenStore(TableStore):
        def save(self, table):
            raise SaveError("the game could not be saved in nowhere (No space left on device)")

    g = GameTable(Rules(), 0, [CHEAP] * 4, seed=4)
    before = (g.to_dict(), g.view())
    tables = GameTables(BrokenStore("nowhere"))
    with pytest.raises(SaveError):
        tables.change(g, lambda t: t.move(first_move(t.view()), 0))
    assert (g.to_dict(), g.view()) == before
    with pytest.raises(ValueError):
        tables.change(g, lambda t: t.move("not a move", 0))
    assert (g.to_dict(), g.view()) == before
    memory = GameTables()  # no store: the action is made as before
    memory.change(g, lambda t: t.move(first_move(t.view()), 0))
    assert g.seq == 1 and g.to_dict()["actions"] != before[0]["actions"]


def a_table_record() -> dict:
    g = GameTable(Rules(), 0, [CHEAP] * 4, seed=5)
    g.move(first_move(g.view()), 0)
    return g.to_dict()


def bad_table_files(good: dict) -> dict[str, tuple[bytes, str]]:
    """Table files that must be refused: name -> (bytes, what the refusal says)."""
    def j(obj) -> bytes:
        return json.dumps(obj).encode()

    return {
        "list": (b"[1, 2, 3]", "the file holds a JSON list, not an object"),
        "deep": (b"[" * 100_000 + b"]" * 100_000, "nested deeper than"),
        "deep object": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested deeper than"),
        "latin-1": ('{"schema": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
        "not JSON": (b"{not json", "not valid JSON"),
        "empty": (b"", "not valid JSON"),
        "a string": (b'"whist"', "the file holds a JSON string, not an object"),
        "another program's": (j({"name": "my notes", "version": 3}), "not a whist-sim table"),
        "another schema": (j({**good, "schema": "whist-sim/table/9"}), "not a whist-sim table"),
        "a field missing": (j({k: v for k, v in good.items() if k != "actions"}), "'actions'"),
        "dealer out of range": (j({**good, "dealer": 7}), "field 'dealer'"),
        "seed negative": (j({**good, "seed": -1}), "field 'seed'"),
        "rules not an object": (j({**good, "rules": 7}), "field 'rules'"),
        "rules out of range": (j({**good, "rules": {"made_bonus": 2**63}}), "made_bonus"),
        "seats short": (j({**good, "seats": [CHEAP]}), "field 'seats'"),
        "actions garbage": (j({**good, "actions": [[0, "AS"]]}), "field 'actions'"),
        "totals text": (j({**good, "totals": "0,0,0,0"}), "field 'totals'"),
        "results garbage": (j({**good, "results": [7]}), "field 'results'"),
        "move changed": (j({**good, "actions": [[0, 1 << 40]]}), "does not replay as stored"),
        "another table's": (j({**good, "id": "b" * 32}), f"is {'b' * 32}, not"),
    }


TABLE_ID = "a" * 32


@pytest.fixture(scope="module")
def good() -> dict:
    return {**a_table_record(), "id": TABLE_ID}


@pytest.mark.parametrize("name", list(bad_table_files({})))
def test_a_malformed_table_file_is_refused_naming_the_file_and_kept(tmp_path, good, name):
    data, fragment = bad_table_files(good)[name]
    path = tmp_path / f"{TABLE_ID}.json"
    path.write_bytes(data)
    with pytest.raises(TableFileError) as caught:
        TableStore(tmp_path).load(TABLE_ID)
    text = str(caught.value)
    assert text.startswith(f"{path}: the stored table cannot be read: ") and "\n" not in text
    assert fragment in text, text
    assert path.read_bytes() == data  # never deleted, never overwritten


def test_the_server_refuses_a_malformed_table_file_with_a_400_naming_it(tmp_path, good, caplog):
    files = bad_table_files(good)
    ids = {name: f"{i:032x}" for i, name in enumerate(files)}
    for name, (data, _) in files.items():
        (tmp_path / f"{ids[name]}.json").write_bytes(data)
    (tmp_path / f"{TABLE_ID}.json").write_text(json.dumps(good))
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        for name, (data, fragment) in files.items():
            path = tmp_path / f"{ids[name]}.json"
            with caplog.at_level(logging.INFO, logger="whist_sim.interfaces.web"):
                caplog.clear()
                status, err = call(url, f"/api/play/{ids[name]}")
                status2, _ = call(url, f"/api/play/{ids[name]}/move", {"move": "pass"})
            assert status == 400 and status2 == 400, (name, err)
            if name != "another table's":
                assert str(path) in err["error"] and fragment in err["error"], (name, err)
            lines = [r for r in caplog.records if r.name == "whist_sim.interfaces.web"]
            assert len(lines) == 2 and all(r.exc_info is None for r in lines)
            assert all("\n" not in r.getMessage() for r in lines)
            assert path.read_bytes() == data, name
        status, v = call(url, f"/api/play/{TABLE_ID}")  # the sound table among them is served
        assert status == 200 and v["seq"] == 1


# ------------------------------------------------------------------ serve at start-up

def test_serve_refuses_a_state_folder_it_cannot_write_before_it_starts(tmp_path, monkeypatch):
    import tempfile

    def read_only(*args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    state = tmp_path / "state"
    r = CliRunner().invoke(main, ["serve", "--state-dir", str(state), "--port", "0"])
    assert r.exit_code == 2, r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"Error: --state-dir {state}: the folder cannot be written (Read-only file system)")


def test_serve_refuses_a_state_folder_that_another_serve_holds_naming_its_pid(tmp_path):
    from whist_sim.runs.lock import FolderLock

    held = FolderLock(tmp_path, "whist-sim serve", what="state folder").acquire()
    try:
        r = CliRunner().invoke(main, ["serve", "--state-dir", str(tmp_path), "--port", "0"])
        assert r.exit_code == 1, r.output
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: --state-dir: "), lines
        assert str(tmp_path) in lines[0] and f"pid {os.getpid()}" in lines[0], lines
        assert held.held and held.path.is_file()  # the running one keeps its lock
    finally:
        held.release()


def test_serve_refuses_a_port_in_use_naming_it(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = CliRunner().invoke(main, ["serve", "--state-dir", str(tmp_path), "--port",
                                      str(port)])
    assert r.exit_code == 2, r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: --port {port}: cannot listen on "
                                                   f"127.0.0.1:{port}"), lines
    assert "open http" not in r.output  # refused before it says where to open the page


def test_serve_locks_its_state_folder_and_tidies_only_its_own_leftovers(tmp_path, monkeypatch):
    """Started with the server itself stubbed out: the folder is locked while it serves (the
    lock file names this process), a temporary file of a save cut short is removed, the
    tables and the user's own files are kept, and the lock is let go when it stops."""
    import uvicorn

    from whist_sim.runs.lock import FolderLock

    web_log = logging.getLogger("whist_sim.interfaces.web")
    monkeypatch.setattr(web_log, "handlers", [])  # the command adds its own; dropped after
    monkeypatch.setattr(web_log, "level", web_log.level)
    table = tmp_path / f"{'c' * 32}.json"
    table.write_text("{}")
    leftover = tmp_path / f".tmp-{'c' * 32}.json.123.456"
    leftover.write_text("{")
    mine = tmp_path / ".tmp-my-notes"
    mine.write_text("keep")
    seen = {}

    def serving(app, host, port, **kwargs):
        seen["lock"] = (tmp_path / ".whist-sim.lock").read_text()
        seen["files"] = sorted(p.name for p in tmp_path.iterdir())

    monkeypatch.setattr(uvicorn, "run", serving)
    r = CliRunner().invoke(main, ["serve", "--state-dir", str(tmp_path), "--port", "0"])
    assert r.exit_code == 0, r.output
    assert "open http://127.0.0.1:" in r.stderr and str(tmp_path) in r.stderr
    assert str(os.getpid()) in seen["lock"] and "whist-sim serve" in seen["lock"]
    assert seen["files"] == sorted([".whist-sim.lock", table.name, mine.name])
    assert table.read_text() == "{}" and mine.read_text() == "keep"
    FolderLock(tmp_path, "a test").acquire().release()  # let go when the server stopped
