"""Proxy selection: which proxy (if any) an origin is reached through, from proxy= / no_proxy= or the environment.

The choice is made once per origin (the client caches origins) and handed to the native transport, which keys its
pools by it and runs the CONNECT or SOCKS5 handshake itself (csrc/http/proxy). A client without a proxy never calls
in here."""

from __future__ import annotations

import base64
import ipaddress
import os
from typing import Any, Mapping, Sequence
from urllib.parse import unquote, urlsplit

__all__ = ["ProxyConfig", "ProxyRules"]

HTTP, SOCKS5 = 1, 2  # the transport's proxy kinds
_DEFAULT_PORTS = {"http": 8080, "socks5": 1080, "socks5h": 1080}


class ProxyConfig:
    """One proxy URL: http://, socks5:// (names resolved here) or socks5h:// (names resolved by the proxy), with
    optional user:password."""

    __slots__ = ("url", "kind", "remote_dns", "host", "port", "username", "password")

    def __init__(self, url: str) -> None:
        if not isinstance(url, str):
            raise TypeError(f"proxy must be a URL string, got {type(url).__name__}")
        parts = urlsplit(url if "://" in url else "http://" + url)  # "host:port" means an http proxy (curl)
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS:
            raise ValueError(f"proxy URL scheme must be http, socks5 or socks5h, got {url!r}")
        try:
            port = parts.port
        except ValueError:
            raise ValueError(f"invalid port in proxy URL {url!r}") from None
        if not parts.hostname:
            raise ValueError(f"proxy URL has no host: {url!r}")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"proxy URL must be scheme://[user:password@]host[:port], got {url!r}")
        self.url = url
        self.kind = HTTP if scheme == "http" else SOCKS5
        self.remote_dns = scheme == "socks5h"
        self.host = parts.hostname
        self.port = port or _DEFAULT_PORTS[scheme]
        self.username = unquote(parts.username or "")
        self.password = unquote(parts.password or "")

    def authorization(self) -> str:
        """The Proxy-Authorization value for an HTTP proxy (Basic, RFC 7617), or ""."""
        if self.kind != HTTP or not (self.username or self.password):
            return ""
        return "Basic " + base64.b64encode(f"{self.username}:{self.password}".encode()).decode("ascii")

    def __repr__(self) -> str:  # never shows the password
        return f"<ProxyConfig {'socks5h' if self.remote_dns else 'socks5' if self.kind == SOCKS5 else 'http'}://" \
               f"{self.host}:{self.port}>"


class _Bypass:
    """no_proxy entries: "*", host names and domains ("example.com" and ".example.com" both cover subdomains),
    IP addresses, CIDR blocks ("10.0.0.0/8"), each optionally with ":port"."""

    __slots__ = ("everything", "names", "networks")

    def __init__(self, entries: Sequence[str]) -> None:
        self.everything = False
        self.names: list[tuple[str, int | None]] = []
        self.networks: list[tuple[Any, int | None]] = []
        for raw in entries:
            if not isinstance(raw, str):
                raise TypeError(f"no_proxy entries must be str, got {type(raw).__name__}")
            entry = raw.strip().lower()
            if not entry:
                continue
            if entry == "*":
                self.everything = True
                continue
            port = None
            host = entry
            if entry.startswith("["):  # [v6] or [v6]:port
                host, _, rest = entry[1:].partition("]")
                port = int(rest[1:]) if rest.startswith(":") and rest[1:].isdigit() else None
            elif entry.count(":") == 1:
                name, _, p = entry.partition(":")
                if p.isdigit():
                    host, port = name, int(p)
            try:
                self.networks.append((ipaddress.ip_network(host, strict=False), port))
            except ValueError:
                self.names.append((host.lstrip("."), port))

    def covers(self, host: str, port: int) -> bool:
        if self.everything:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None
        if ip is not None:
            return any(ip in net and (p is None or p == port) for net, p in self.networks)
        return any((host == name or host.endswith("." + name)) and (p is None or p == port)
                   for name, p in self.names)


class ProxyRules:
    """Which proxy each origin uses: `proxy` for every scheme, else (trust_env) HTTP_PROXY / HTTPS_PROXY / ALL_PROXY
    from the environment (lower case names first, as curl reads them); hosts covered by no_proxy (and, with
    trust_env, NO_PROXY) go direct. `make` gives None when no origin can ever use a proxy."""

    __slots__ = ("http", "https", "bypass")

    def __init__(self, http: ProxyConfig | None, https: ProxyConfig | None, bypass: _Bypass) -> None:
        self.http, self.https, self.bypass = http, https, bypass

    @classmethod
    def make(cls, proxy: str | None, no_proxy: Sequence[str] | None, trust_env: bool,
             environ: Mapping[str, str] | None = None) -> "ProxyRules | None":
        if isinstance(no_proxy, str):
            raise TypeError("no_proxy must be a list of hosts, domains or CIDRs, not a str")
        if no_proxy is not None and proxy is None and not trust_env:
            raise ValueError("'no_proxy' needs a 'proxy' (or trust_env=True) to exclude hosts from")
        entries = list(no_proxy or ())
        http = https = ProxyConfig(proxy) if proxy is not None else None
        if trust_env:
            env = os.environ if environ is None else environ

            cgi = "REQUEST_METHOD" in env  # in a CGI script HTTP_PROXY is the client's "Proxy:" header (httpoxy)

            def read(name: str) -> str | None:
                if cgi and name == "http_proxy":
                    return env.get(name) or None
                return env.get(name.lower()) or env.get(name.upper()) or None

            if proxy is None:
                every = read("all_proxy")
                http_url, https_url = read("http_proxy") or every, read("https_proxy") or every
                http = ProxyConfig(http_url) if http_url else None
                https = ProxyConfig(https_url) if https_url else None
            entries += (read("no_proxy") or "").split(",")
        if http is None and https is None:
            return None
        return cls(http, https, _Bypass(entries))

    def for_origin(self, https: bool, host: str, port: int) -> ProxyConfig | None:
        config = self.https if https else self.http
        if config is None or self.bypass.covers(host, port):
            return None
        return config
