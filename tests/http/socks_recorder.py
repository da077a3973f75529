"""tests/http/socks_recorder.py: a small SOCKS5 server (RFC 1928, no auth) that records what clients ask for.

microsocks is the real proxy of the tests; this one shows what is on the wire (the address type and host of each
CONNECT: a name for socks5h, an address for socks5) and misbehaves on request: it sends every reply one byte at a
time (the client must reassemble them), answers with a chosen failure code, or appends junk to the last byte of its reply."""

from __future__ import annotations

import socket
import threading
import time


class SocksRecorder:
    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"socks5://127.0.0.1:{self.sock.getsockname()[1]}"
        self.requests: list[tuple[int, str, int]] = []  # (address type, host, port)
        self.fail_code = 0
        self.junk = b""
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.sock.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    @staticmethod
    def _read(conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError("client went away")
            data += chunk
        return data

    @staticmethod
    def _send_slowly(conn: socket.socket, data: bytes) -> None:
        for i in range(len(data)):
            conn.sendall(data[i:i + 1])
            time.sleep(0.002)

    def _serve(self, conn: socket.socket) -> None:
        upstream = None
        try:
            _, n = self._read(conn, 2)
            self._read(conn, n)
            self._send_slowly(conn, b"\x05\x00")
            _, cmd, _, atyp = self._read(conn, 4)
            if atyp == 1:
                host = socket.inet_ntop(socket.AF_INET, self._read(conn, 4))
            elif atyp == 4:
                host = socket.inet_ntop(socket.AF_INET6, self._read(conn, 16))
            else:
                host = self._read(conn, self._read(conn, 1)[0]).decode()
            port = int.from_bytes(self._read(conn, 2), "big")
            with self.lock:
                self.requests.append((atyp, host, port))
            if self.fail_code:
                self._send_slowly(conn, bytes([5, self.fail_code, 0, 1, 0, 0, 0, 0, 0, 0]))
                return
            upstream = socket.create_connection((host, port), timeout=5)
            reply = b"\x05\x00\x00\x01\x7f\x00\x00\x01\x00\x00"
            self._send_slowly(conn, reply[:-1])
            conn.sendall(reply[-1:] + self.junk)  # junk in the same segment as the reply's end: seen with it
            threading.Thread(target=self._pipe, args=(upstream, conn), daemon=True).start()
            self._pipe(conn, upstream)
        except (OSError, ConnectionError, ValueError):
            pass
        finally:
            conn.close()
            if upstream is not None:
                upstream.close()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass
