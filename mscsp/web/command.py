"""``mscsp serve``: the analysis and play pages on a local web server.

The command line calls :func:`register` to add the subcommand; the web
dependencies (Starlette, uvicorn) are imported only when the server starts, so the
other commands do not need them.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys

__all__ = ["register", "serve", "loopback_hosts", "json_http_protocol"]


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0-65535, not {text[:40]!r}")
    return int(text)


def register(commands) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to an ``argparse`` subparsers object.

    Examples
    --------
    >>> parser = argparse.ArgumentParser(prog="mscsp")
    >>> register(parser.add_subparsers(dest="command"))
    ArgumentParser(prog='mscsp serve', ...)
    >>> args = parser.parse_args(["serve", "--port", "8123"])
    >>> args.host, args.port, args.func is serve
    ('127.0.0.1', 8123, True)
    """
    parser = commands.add_parser(
        "serve",
        help="serve the analysis and play pages on a local web server",
        description="Serve the analysis page (/) and the play page (/play) with a JSON API under /api/.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default: 8000; 0 picks a free one)")
    parser.set_defaults(func=serve)
    return parser


def loopback_hosts(host: str) -> list[str] | None:
    """Host names to accept when listening on ``host``: loopback names only, or any.

    Examples
    --------
    >>> loopback_hosts("127.0.0.1")
    ['127.0.0.1', 'localhost']
    >>> loopback_hosts("0.0.0.0") is None
    True
    """
    if host == "localhost":
        return ["127.0.0.1", "localhost"]
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    if not address.is_loopback:
        return None
    return sorted({host, "127.0.0.1", "localhost"})


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; returns the exit status.

    The socket is bound before the server starts, so a port in use or an unknown
    host is one line on standard error and exit status 2, and ``--port 0`` prints
    the port it picked.
    """
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:  # pragma: no cover - depends on the installation
        sys.stderr.write(f"mscsp serve: error: the web server needs {exc.name}: pip install starlette uvicorn\n")
        return 2
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        sys.stderr.write(f"mscsp serve: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}\n")
        return 2
    port = sock.getsockname()[1]
    app = create_app(allowed_hosts=loopback_hosts(args.host))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, http=json_http_protocol()))
    shown = f"[{args.host}]" if ":" in args.host else args.host
    sys.stderr.write(f"mscsp serve: analysis at http://{shown}:{port}/ and play at "
                     f"http://{shown}:{port}/play (Ctrl+C stops)\n")
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles the signal itself
        pass
    finally:
        sock.close()
    return 0


def json_http_protocol():
    """uvicorn's HTTP/1.1 protocol (h11), whose answer to a request that is not valid
    HTTP (a Content-Length that is not a number, a malformed header line) is JSON like
    every other error of the API, not plain text."""
    import json

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class JsonErrors(H11Protocol):
        def send_400_response(self, msg: str) -> None:
            # uvicorn's message says no more than this
            body = json.dumps({"error": "the request is not valid HTTP/1.1: a malformed request line or header, "
                                        "such as a Content-Length that is not a number"}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close")]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                          h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return JsonErrors


def _bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (port 0 picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY on accepted connections only for
    # TCP-protocol sockets, and without it each answer waits ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    return sock
