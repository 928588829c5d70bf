"""kazoo's read_only=True against a 3-server ensemble with -Dreadonlymode.enabled=true that loses two servers
(ReadOnlyContract's scenario, driven by the Python client): the server left serves reads in read-only mode,
refuses writes with NotReadOnlyCallError, and kazoo moves back to read-write once a quorum is back.

ZK_ENSEMBLE_CMD: the command that starts one server from a zoo.cfg given as its last argument, with
read-only mode on; ZK_ENSEMBLE_DIR: a fresh directory for the servers' files.
"""
import os
import shlex
import socket
import subprocess
import time

import pytest
from kazoo.client import KazooClient
from kazoo.exceptions import NotReadOnlyCallError
from kazoo.handlers.threading import KazooTimeoutError
from kazoo.protocol.states import KeeperState

COMMAND = shlex.split(os.environ["ZK_ENSEMBLE_CMD"])
DIR = os.environ["ZK_ENSEMBLE_DIR"]
QUORUM_WAIT_S = 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def four_letter_word(port, word):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(word.encode())
            chunks = []
            while True:
                b = s.recv(4096)
                if not b:
                    return b"".join(chunks).decode().strip()
                chunks.append(b)
    except OSError:
        return ""


class Ensemble:
    def __init__(self, root):
        self.client_ports = {i: free_port() for i in (1, 2, 3)}
        lines = ["server.%d=127.0.0.1:%d:%d;127.0.0.1:%d" % (i, free_port(), free_port(), self.client_ports[i])
                 for i in (1, 2, 3)]
        self.root = root
        self.processes = {}
        for i in (1, 2, 3):
            data = os.path.join(root, "data-%d" % i)
            os.makedirs(data, exist_ok=True)
            with open(os.path.join(data, "myid"), "w") as f:
                f.write("%d\n" % i)
            with open(self.cfg(i), "w") as f:
                f.write("\n".join(["tickTime=200", "initLimit=10", "syncLimit=5", "dataDir=" + data,
                                   "clientPortAddress=127.0.0.1", "clientPort=%d" % self.client_ports[i],
                                   "forceSync=no", "4lw.commands.whitelist=*", "admin.enableServer=false",
                                   # ZooKeeper needs local sessions for read-only mode since 3.7
                                   "localSessionsEnabled=true"] + lines) + "\n")

    def cfg(self, i):
        return os.path.join(self.root, "zoo-%d.cfg" % i)

    def hosts(self, *ids):
        return ",".join("127.0.0.1:%d" % self.client_ports[i] for i in (ids or (1, 2, 3)))

    def start(self, i):
        log = open(os.path.join(self.root, "server-%d.log" % i), "ab")
        self.processes[i] = subprocess.Popen(COMMAND + [self.cfg(i)], stdout=log, stderr=subprocess.STDOUT)

    def stop(self, i):
        p = self.processes.pop(i)
        p.terminate()
        p.wait(timeout=30)

    def await_isro(self, i, expected):
        deadline = time.time() + QUORUM_WAIT_S
        last = ""
        while time.time() < deadline:
            last = four_letter_word(self.client_ports[i], "isro")
            if last == expected:
                return
            time.sleep(0.1)
        pytest.fail("server %d answered isro %r, not %r, for %d s" % (i, last, expected, QUORUM_WAIT_S))

    def close(self):
        for i in list(self.processes):
            self.stop(i)


@pytest.fixture
def ensemble():
    e = Ensemble(DIR)
    try:
        yield e
    finally:
        e.close()


def test_read_only_client_reads_a_partitioned_server_and_returns_to_the_quorum(ensemble):
    for i in (1, 2, 3):
        ensemble.start(i)
    for i in (1, 2, 3):
        ensemble.await_isro(i, "rw")
    writer = KazooClient(hosts=ensemble.hosts(1), timeout=10)
    writer.start(timeout=QUORUM_WAIT_S)
    writer.create("/ro", b"v1")
    writer.stop()
    writer.close()
    ensemble.stop(2)
    ensemble.stop(3)
    ensemble.await_isro(1, "ro")

    ro = KazooClient(hosts=ensemble.hosts(), timeout=10, read_only=True)
    try:
        ro.start(timeout=QUORUM_WAIT_S)
        assert ro.client_state == KeeperState.CONNECTED_RO
        assert ro.get("/ro")[0] == b"v1"
        with pytest.raises(NotReadOnlyCallError):
            ro.create("/ro/x", b"")
        with pytest.raises(NotReadOnlyCallError):
            ro.set("/ro", b"v2")
        assert ro.get("/ro")[0] == b"v1", "the connection stays after a refused write"

        rw_only = KazooClient(hosts=ensemble.hosts(1), timeout=3)
        with pytest.raises(KazooTimeoutError):
            rw_only.start(timeout=4)
        rw_only.stop()
        rw_only.close()

        ensemble.start(2)
        deadline = time.time() + QUORUM_WAIT_S
        while ro.client_state != KeeperState.CONNECTED and time.time() < deadline:
            time.sleep(0.2)
        assert ro.client_state == KeeperState.CONNECTED, "still %s after %d s" % (ro.client_state, QUORUM_WAIT_S)
        ro.create("/ro/after", b"")
        assert ro.exists("/ro/after") is not None
    finally:
        ro.stop()
        ro.close()
