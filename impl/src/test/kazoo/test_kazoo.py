"""kazoo, the Python ZooKeeper client, against a running zabkit server (ZK_HOSTS)."""
import os
import threading
import uuid

import pytest
from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError, NotEmptyError, NoAuthError
from kazoo.security import make_digest_acl

HOSTS = os.environ["ZK_HOSTS"]


@pytest.fixture
def zk():
    client = KazooClient(hosts=HOSTS, timeout=10)
    client.start(timeout=15)
    base = "/kazoo-" + uuid.uuid4().hex[:8]
    client.ensure_path(base)
    client.base = base
    yield client
    client.delete(base, recursive=True)
    client.stop()
    client.close()


def test_crud_and_versions(zk):
    path = zk.base + "/n"
    zk.create(path, b"one")
    data, stat = zk.get(path)
    assert data == b"one" and stat.version == 0 and stat.czxid == stat.mzxid
    stat2 = zk.set(path, b"two", version=0)
    assert stat2.version == 1 and stat2.mzxid > stat.mzxid
    with pytest.raises(BadVersionError):
        zk.set(path, b"three", version=0)
    with pytest.raises(NodeExistsError):
        zk.create(path, b"again")
    zk.create(path + "/child")
    with pytest.raises(NotEmptyError):
        zk.delete(path)
    zk.delete(path, recursive=True)
    with pytest.raises(NoNodeError):
        zk.get(path)


def test_sequential_names_and_ephemerals(zk):
    names = [zk.create(zk.base + "/s-", sequence=True) for _ in range(3)]
    assert names == [zk.base + "/s-%010d" % i for i in range(3)]
    other = KazooClient(hosts=HOSTS, timeout=10)
    other.start(timeout=15)
    other.create(zk.base + "/eph", ephemeral=True)
    assert zk.exists(zk.base + "/eph").ephemeralOwner == other.client_id[0]
    other.stop()
    other.close()
    assert zk.exists(zk.base + "/eph") is None, "an ephemeral must go with its closed session"


def test_watches_fire_once_before_the_new_state(zk):
    path = zk.base + "/w"
    zk.create(path, b"a")
    seen = []
    fired = threading.Event()

    def watcher(event):
        seen.append((event.type, event.path))
        fired.set()

    zk.get(path, watch=watcher)
    zk.set(path, b"b")
    assert fired.wait(10)
    zk.set(path, b"c")
    zk.sync(path)
    assert seen == [("CHANGED", path)], "a standard watch is one-shot"


def test_children_watch_recipe(zk):
    updates = []
    done = threading.Event()

    @zk.ChildrenWatch(zk.base)
    def children(kids):
        updates.append(sorted(kids))
        if len(kids) == 2:
            done.set()

    zk.create(zk.base + "/x")
    zk.create(zk.base + "/y")
    assert done.wait(10)
    assert updates[-1] == ["x", "y"]


def test_transaction_is_all_or_nothing(zk):
    t = zk.transaction()
    t.create(zk.base + "/t1", b"")
    t.check(zk.base, 42)
    results = t.commit()
    assert isinstance(results[1], BadVersionError)
    assert zk.exists(zk.base + "/t1") is None
    t = zk.transaction()
    t.create(zk.base + "/t1", b"")
    t.create(zk.base + "/t2", b"")
    assert t.commit() == [zk.base + "/t1", zk.base + "/t2"]


def test_lock_recipe_has_one_holder(zk):
    lock = zk.Lock(zk.base + "/lock", "a")
    other = zk.Lock(zk.base + "/lock", "b")
    assert lock.acquire(timeout=5)
    assert not other.acquire(blocking=False)
    lock.release()
    assert other.acquire(timeout=5)
    other.release()


def test_digest_acl_is_enforced(zk):
    acl = make_digest_acl("alice", "secret", all=True)
    zk.add_auth("digest", "alice:secret")
    zk.create(zk.base + "/private", b"s", acl=[acl])
    stranger = KazooClient(hosts=HOSTS, timeout=10)
    stranger.start(timeout=15)
    with pytest.raises(NoAuthError):
        stranger.get(zk.base + "/private")
    stranger.stop()
    stranger.close()
    assert zk.get(zk.base + "/private")[0] == b"s"
