"""fork() in a process that only ever used SyncHTTPClient: parent and child must never share a connection.

The fork handlers are registered when boltwire._core is imported; the child closes its copies of every inherited
socket and each client starts over with empty pools. The scenario runs in a subprocess (forking pytest itself
would duplicate the whole test session)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from _local_server import LocalServer

SCRIPT = textwrap.dedent(
    """
    import json, os, sys
    import boltwire
    from boltwire import SyncHTTPClient

    url = sys.argv[1]
    with SyncHTTPClient(base_url=url) as client:
        before = tuple(client.get("/peer", response_data_type=list).data)  # the parent's keep-alive connection
        pid = os.fork()
        who = "child" if pid == 0 else "parent"
        wrong, ports = 0, set()
        for i in range(200):
            r = client.get(f"/echo?who={who}&i={i}", response_data_type=dict)
            if r.data["target"] != f"/echo?who={who}&i={i}":
                wrong += 1
            ports.add(tuple(client.get("/peer", response_data_type=list).data)[1])
        report = {"who": who, "wrong": wrong, "ports": sorted(ports), "before": before[1]}
        if pid == 0:
            with open(sys.argv[2], "w") as f:
                json.dump(report, f)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"parent": report, "child_status": status}))
    """
)


@pytest.fixture()
def server():
    with LocalServer() as s:
        yield s


def test_fork_in_a_sync_only_process(server, tmp_path):
    child_report = tmp_path / "child.json"
    done = subprocess.run([sys.executable, "-c", SCRIPT, server.url, str(child_report)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    parent, child = out["parent"], json.loads(child_report.read_text())
    assert out["child_status"] == 0
    assert parent["wrong"] == 0 and child["wrong"] == 0  # every answer matched its own request
    assert parent["ports"] == [parent["before"]]  # the parent kept its connection
    assert parent["before"] not in child["ports"]  # the child opened its own
    assert set(parent["ports"]).isdisjoint(child["ports"])
    assert len(server.log) == 1 + 2 * 2 * 200
