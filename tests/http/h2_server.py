"""tests/http/h2_server.py: a scripted cleartext HTTP/2 server (prior knowledge) on the `h2` library (a dependency of
hypercorn, a test extra), for the cases nginx cannot produce: GOAWAY with requests in flight, RST_STREAM, a limit of
one concurrent stream, tiny flow-control windows, a request that is never answered.

    with H2Server(max_streams=1, window=1024) as server:
        server.url                      # "http://127.0.0.1:PORT"
        server.connections              # connections accepted so far
        server.resets                   # [(connection number, stream id, error code)] of RST_STREAMs received
        server.max_open_streams         # the most request streams open at once on one connection

Routes: /echo answers JSON {"method", "path", "body_size", "connection"} once the request ended; /rst?code=N resets
the stream with error code N; /hang never answers; /stall?first=A&then=B answers a 16 MiB body of which it sends A
bytes, 0.3 s later B more, then nothing (the stream stays open); /refuse-late answers a 100000-byte body (bytes
0, 1, ..., 255, 0, ...) but, the first time it is asked for, resets the stream with REFUSED_STREAM after its first
half. With goaway=(hold, answer, last), the FIRST connection keeps its
requests until `hold` have ended, answers the `answer` lowest stream ids, sends GOAWAY naming the `last`-th stream id
(1-based, in arrival order) as the last one processed, and closes.
"""

from __future__ import annotations

import json
import socket
import threading
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.errors
import h2.exceptions
import h2.connection
import h2.events
import h2.settings


class H2Server:
    def __init__(self, max_streams: int | None = None, window: int | None = None,
                 goaway: tuple[int, int, int] | None = None) -> None:
        self.max_streams = max_streams
        self.window = window
        self.goaway = goaway
        self.connections = 0
        self.resets: list[tuple[int, int, int]] = []
        self.max_open_streams = 0
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._threads: list[threading.Thread] = []
        self._clients: list[socket.socket] = []
        self._stopping = False
        self._refused_late = False  # /refuse-late refused once

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> H2Server:
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.port = self._sock.getsockname()[1]
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def stop(self) -> None:
        self._stopping = True
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() of the accepting thread
            except OSError:
                pass
            self._sock.close()
        with self._lock:
            for c in self._clients:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                c.close()
        for t in self._threads:
            t.join(timeout=5)

    def __enter__(self) -> H2Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals

    def _accept(self) -> None:
        while not self._stopping:
            try:
                client, _ = self._sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
                number = self.connections
                self._clients.append(client)
            t = threading.Thread(target=self._serve, args=(client, number), daemon=True)
            t.start()
            self._threads.append(t)

    def _serve(self, sock: socket.socket, number: int) -> None:
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        conn.initiate_connection()
        settings = {}
        if self.max_streams is not None:
            settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = self.max_streams
        if self.window is not None:
            settings[h2.settings.SettingCodes.INITIAL_WINDOW_SIZE] = self.window
        if settings:
            conn.update_settings(settings)
        sock.sendall(conn.data_to_send())
        requests: dict[int, dict] = {}
        ended: list[int] = []  # stream ids whose request ended, in arrival order
        open_streams: set[int] = set()
        goaway = self.goaway if number == 1 else None
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        headers = dict(event.headers)
                        requests[event.stream_id] = {"headers": headers, "size": 0}
                        open_streams.add(event.stream_id)
                        with self._lock:
                            self.max_open_streams = max(self.max_open_streams, len(open_streams))
                        path = urlsplit(headers[":path"])
                        if path.path == "/rst":
                            code = int(parse_qs(path.query)["code"][0])
                            conn.reset_stream(event.stream_id, error_code=code)
                            open_streams.discard(event.stream_id)
                    elif isinstance(event, h2.events.DataReceived):
                        if event.stream_id in requests:
                            requests[event.stream_id]["size"] += len(event.data)
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        if event.stream_id not in requests or event.stream_id not in open_streams:
                            continue
                        ended.append(event.stream_id)
                        if goaway is None:
                            self._answer(conn, event.stream_id, requests[event.stream_id], number, open_streams)
                            if urlsplit(requests[event.stream_id]["headers"][":path"]).path == "/stall":
                                self._stall(conn, sock, event.stream_id, requests[event.stream_id])
                    elif isinstance(event, h2.events.StreamReset):
                        open_streams.discard(event.stream_id)
                        with self._lock:
                            self.resets.append((number, event.stream_id, event.error_code))
                if goaway is not None and len(ended) >= goaway[0]:
                    hold, answer, last = goaway
                    for stream_id in sorted(ended)[:answer]:
                        self._answer(conn, stream_id, requests[stream_id], number, open_streams)
                    conn.close_connection(last_stream_id=ended[last - 1])
                    sock.sendall(conn.data_to_send())
                    return
                out = conn.data_to_send()
                if out:
                    sock.sendall(out)
        except (OSError, h2.exceptions.ProtocolError):
            return
        finally:
            try:
                sock.close()
            except OSError:
                pass

    @staticmethod
    def _stall(conn, sock: socket.socket, stream_id: int, request: dict) -> None:
        query = parse_qs(urlsplit(request["headers"][":path"]).query)
        conn.send_headers(stream_id, [(":status", "200"), ("content-length", str(16 << 20))])
        for size in (int(query["first"][0]), int(query["then"][0])):
            if size > conn.local_flow_control_window(stream_id):
                raise AssertionError("/stall: more than the client's window")
            H2Server._send_data(conn, stream_id, b"x" * size)
            sock.sendall(conn.data_to_send())
            threading.Event().wait(0.3)

    @staticmethod
    def _send_data(conn, stream_id: int, data: bytes, end: bool = False) -> None:
        for start in range(0, len(data), conn.max_outbound_frame_size):
            piece = data[start:start + conn.max_outbound_frame_size]
            conn.send_data(stream_id, piece, end_stream=end and start + len(piece) == len(data))

    def _answer(self, conn, stream_id: int, request: dict, number: int, open_streams: set[int]) -> None:
        path = urlsplit(request["headers"][":path"]).path
        if path in ("/hang", "/stall"):
            return
        if path == "/refuse-late":  # (RFC 9113 §8.7 forbids it: REFUSED_STREAM says nothing was processed)
            body = (bytes(range(256)) * 391)[:100000]
            conn.send_headers(stream_id, [(":status", "200"), ("content-length", str(len(body)))])
            with self._lock:
                first, self._refused_late = not self._refused_late, True
            if first:
                self._send_data(conn, stream_id, body[:len(body) // 2])
                conn.reset_stream(stream_id, error_code=h2.errors.ErrorCodes.REFUSED_STREAM)
            else:
                self._send_data(conn, stream_id, body, end=True)
            open_streams.discard(stream_id)
            return
        body = json.dumps({"method": request["headers"][":method"], "path": path, "body_size": request["size"],
                           "connection": number}).encode()
        conn.send_headers(stream_id, [(":status", "200"), ("content-type", "application/json"),
                                      ("content-length", str(len(body)))])
        # Within the client's window (16 KiB frames): the test bodies are small.
        conn.send_data(stream_id, body, end_stream=True)
        open_streams.discard(stream_id)
