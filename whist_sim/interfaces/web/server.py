"""Running the app: in the foreground (``whist-sim serve``) or on a background thread for tests
and the screenshot script (:class:`LocalServer`); :func:`check_listen`: can the server listen on
an address (checked before ``serve`` says where to open the page)."""

from __future__ import annotations

import errno
import socket
import threading
import time
from typing import Any


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class ListenError(ValueError):
    """An address the server cannot listen on; ``option`` is the one at fault (``--host`` or
    ``--port``) and the message says why (a command prefixes the option and its value)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


def check_listen(host: str, port: int) -> int:
    """Check that the server can listen on ``host`` (a name or an address; ``""``: every
    address) and TCP ``port``, as uvicorn will: every address ``host`` resolves to is bound,
    with ``SO_REUSEADDR``, then let go. Returns the port (with ``port`` 0, one free now). Raises
    :class:`ListenError` naming ``--host`` (no such name or address, or not one of this
    machine's) or ``--port`` (in use, or not allowed) with the reason."""
    where = f"[{host}]" if ":" in host else host
    try:
        infos = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM,
                                   0, socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise ListenError("--host", f"not a name or address this machine can listen on "
                          f"({reason})") from None
    held: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in infos:
            if port:  # with port 0, the port the first address was given
                address = (address[0], port, *address[2:])
            sock = socket.socket(family, kind, proto)
            held.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # as asyncio does
            try:
                sock.bind(address)
            except OSError as e:
                reason = e.strerror or str(e)
                if e.errno in (errno.EADDRINUSE, errno.EACCES):
                    raise ListenError("--port", f"cannot listen on {where}:{port} ({reason})"
                                      + (": is another server running there?"
                                         if e.errno == errno.EADDRINUSE else "")) from None
                raise ListenError("--host", f"not an address of this machine ({reason})") \
                    from None
            port = int(sock.getsockname()[1])
    finally:
        for sock in held:
            sock.close()
    return port


class LocalServer:
    """The app served by uvicorn on a background thread: ``with LocalServer(app) as url: ...``
    (``url`` like ``http://127.0.0.1:PORT``); stops when the block ends."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int | None = None,
                 timeout_s: float = 30.0) -> None:
        import uvicorn

        self.host, self.port = host, port or free_port(host)
        self.server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port,
                                                    log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True,
                                       name="whist-web-server")
        self.timeout_s = timeout_s

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> str:
        self.thread.start()
        end = time.monotonic() + self.timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError(f"the web server did not start on {self.url}")
            time.sleep(0.02)
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
