"""The wire frame and a framed connection (protocol/frame.h, protocol/connection.h).

A connection runs over TCP, or over the server's same-host Unix-domain socket
(protocol/local_channel.h) when the server is on this host and offers one; the frames are the
same. ASG_LOCAL_CHANNEL=off in the environment keeps it on TCP.

Frames: b"ASG1", big-endian JSON and attachment lengths, JSON envelope {"type", "reference",
"message"}, attachment bytes. A connection sends heartbeats every HEARTBEAT_PERIOD and closes
when its peer is silent for PEER_TIMEOUT.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import signal
import stat
import socket
import struct
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from . import message_types as types

HEADER = struct.Struct(">4sII")
MAGIC = b"ASG1"
MAX_FRAME_BYTES = 64 << 20
HEARTBEAT_PERIOD = 0.5  # [s]
PEER_TIMEOUT = 3.0  # [s]
UNIX_PREFIX = "unix:"  # an endpoint naming a Unix-domain socket: "unix:/path"


def _is_this_host(host: str) -> bool:
    """True for a loopback address or one a socket here can bind (this host's own)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET if address.version == 4 else socket.AF_INET6
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((host, 0))
        return True
    except OSError:
        return False


def local_channel_path(endpoint: str) -> str:
    """The same-host socket to try for "HOST:PORT" (protocol/local_channel.h), or "": the
    channel is off, the host is not this one, or the socket's directory is not this user's."""
    if os.environ.get("ASG_LOCAL_CHANNEL") == "off":
        return ""
    host, _, port = endpoint.rpartition(":")
    host = host.strip("[]")
    if host == "localhost":
        host = "127.0.0.1"
    if not port.isdigit() or not _is_this_host(host):
        return ""
    directory = f"/tmp/asg-local-{os.getuid()}"
    try:
        status = os.lstat(directory)
    except OSError:
        return ""
    if (not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid()
            or status.st_mode & 0o077):
        return ""
    return f"{directory}/{host}-{int(port)}.sock"


def _connect_unix(path: str, timeout: float) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    return sock


@contextlib.contextmanager
def stop_signals(on_signal: Callable[[int], None], enabled: bool = True) -> Iterator[None]:
    """While inside, SIGINT and SIGTERM call on_signal(number) instead of their handlers (only
    on the main thread, and only when enabled); the handlers are restored on leaving. on_signal
    should only set a flag: it runs between any two bytecodes of the main thread."""
    previous = {}
    if enabled and threading.current_thread() is threading.main_thread():
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, lambda n, _frame: on_signal(n))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class NodeError(Exception):
    """A request was refused, timed out, or the connection is gone."""


@dataclass
class Frame:
    """One decoded frame."""

    type: str
    reference: int
    message: dict
    attachment: bytes = b""


class Connection:
    """A framed connection (TCP or the same-host Unix socket) with heartbeats and request/reply
    by reference; thread-safe. channel is "tcp" or "unix"."""

    def __init__(self, sock: socket.socket, on_frame: Callable[[Frame], None],
                 on_close: Callable[[str], None]) -> None:
        self._sock = sock
        self.channel = "unix" if sock.family == socket.AF_UNIX else "tcp"
        self._on_frame = on_frame
        self._on_close = on_close
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._next_reference = 1
        self._pending: dict[int, list] = {}  # reference -> [event, frame or None]
        self._open = True
        self._last_received = time.monotonic()
        threading.Thread(target=self._read_loop, daemon=True).start()
        threading.Thread(target=self._heartbeat_loop, daemon=True).start()

    @classmethod
    def connect(cls, endpoint: str, timeout: float, on_frame: Callable[[Frame], None],
                on_close: Callable[[str], None]) -> "Connection":
        """Connects to "HOST:PORT" (its same-host socket when offered) or "unix:PATH"; raises
        OSError when it cannot."""
        if endpoint.startswith(UNIX_PREFIX):
            sock = _connect_unix(endpoint[len(UNIX_PREFIX):], timeout)
            sock.settimeout(None)
            return cls(sock, on_frame, on_close)
        path = local_channel_path(endpoint)
        if path:
            try:
                sock = _connect_unix(path, timeout)
                sock.settimeout(None)
                return cls(sock, on_frame, on_close)
            except OSError:
                pass  # not offered, or its server ended: TCP
        host, _, port = endpoint.rpartition(":")
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock, on_frame, on_close)

    @classmethod
    def connect_retrying(cls, endpoint: str, deadline: float, retry_period: float,
                         attempt_timeout: float, on_frame: Callable[[Frame], None],
                         on_close: Callable[[str], None]) -> "Connection":
        """connect(), tried again every retry_period until the time.monotonic() deadline;
        raises NodeError when the client cannot be reached by then."""
        while True:
            try:
                return cls.connect(endpoint, attempt_timeout, on_frame, on_close)
            except OSError as error:
                if time.monotonic() + retry_period > deadline:
                    raise NodeError(f"cannot reach the client at {endpoint}: {error}") from error
                time.sleep(retry_period)

    @property
    def is_open(self) -> bool:
        """True until the connection closes."""
        return self._open

    def send(self, type_: str, message: dict, attachment: bytes = b"",
             reference: Optional[int] = None) -> int:
        """Sends a frame (a fresh reference unless given); returns its reference."""
        with self._lock:
            if reference is None:
                reference = self._next_reference
                self._next_reference += 1
        body = json.dumps({"type": type_, "reference": reference, "message": message},
                          allow_nan=False).encode()
        if len(body) + len(attachment) > MAX_FRAME_BYTES:
            raise ValueError(f"{type_} frame of {len(body) + len(attachment)} bytes is too long")
        data = HEADER.pack(MAGIC, len(body), len(attachment)) + body + attachment
        try:
            with self._send_lock:
                self._sock.sendall(data)
        except OSError as error:
            self.close(f"send failed: {error}")
        return reference

    def reply(self, request: Frame, message: dict, attachment: bytes = b"") -> None:
        """Sends the reply to a request: its type + "Response", its reference."""
        self.send(types.response_type(request.type), message, attachment, request.reference)

    def reply_error(self, reference: int, description: str) -> None:
        """Sends an Error reply."""
        self.send(types.ERROR, {"success": False, "description": description}, b"", reference)

    def request(self, type_: str, message: dict, attachment: bytes = b"",
                timeout: float = 10.0) -> Frame:
        """Sends a request and waits for its reply; raises NodeError on Error, timeout, close."""
        event = threading.Event()
        with self._lock:
            reference = self._next_reference
            self._next_reference += 1
            self._pending[reference] = [event, None]
        self.send(type_, message, attachment, reference)
        event.wait(timeout)
        with self._lock:
            reply = self._pending.pop(reference)[1]
        if reply is None:
            state = "no reply within %.1f s" % timeout if self._open else "connection closed"
            raise NodeError(f"{type_}: {state}")
        if reply.type == types.ERROR:
            raise NodeError(f"{type_}: {reply.message.get('description', 'error')}")
        return reply

    def close(self, reason: str) -> None:
        """Closes the socket; pending requests fail; on_close runs once."""
        with self._lock:
            if not self._open:
                return
            self._open = False
            for entry in self._pending.values():
                entry[0].set()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        self._on_close(reason)

    def _read_exact(self, count: int) -> bytes:
        chunks, left = [], count
        while left > 0:
            chunk = self._sock.recv(min(left, 1 << 20))
            if not chunk:
                raise ConnectionError("peer closed the connection")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def _read_loop(self) -> None:
        try:
            while self._open:
                magic, json_length, attachment_length = HEADER.unpack(self._read_exact(12))
                if magic != MAGIC or json_length + attachment_length > MAX_FRAME_BYTES:
                    raise ConnectionError(f"bad frame header {magic!r} {json_length}")
                envelope = json.loads(self._read_exact(json_length))
                attachment = self._read_exact(attachment_length) if attachment_length else b""
                self._last_received = time.monotonic()
                frame = Frame(envelope["type"], envelope["reference"], envelope["message"],
                              attachment)
                if frame.type == types.HEARTBEAT:
                    continue
                if types.is_reply_type(frame.type):
                    with self._lock:
                        entry = self._pending.get(frame.reference)
                        if entry is not None:
                            entry[1] = frame
                            entry[0].set()
                    continue
                self._on_frame(frame)
        except (OSError, ValueError, KeyError, ConnectionError) as error:
            self.close(str(error) or type(error).__name__)

    def _heartbeat_loop(self) -> None:
        while self._open:
            if time.monotonic() - self._last_received > PEER_TIMEOUT:
                self.close(f"peer silent for more than {PEER_TIMEOUT} s")
                return
            self.send(types.HEARTBEAT, {}, b"", 0)
            time.sleep(HEARTBEAT_PERIOD)
