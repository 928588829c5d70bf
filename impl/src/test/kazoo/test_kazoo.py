"""kazoo, the Python ZooKeeper client, against a running zabkit server (ZK_HOSTS)."""
import os
import threading
import uuid

import pytest
from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError, NotEmptyError, NoAuthError, \
    ReconfigDisabledError
from kazoo.security import CREATOR_ALL_ACL, make_digest_acl, make_digest_acl_credential

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


def test_null_data_is_stored_and_read_back_as_null(zk):
    # kazoo's test_create_null_data and test_set_null_data: a None value travels as jute length -1
    path = zk.base + "/null"
    zk.create(path, None)
    assert zk.get(path)[0] is None
    zk.set(path, b"x")
    assert zk.get(path)[0] == b"x"
    zk.set(path, None)
    assert zk.get(path)[0] is None
    zk.create(zk.base + "/empty", b"")
    assert zk.get(zk.base + "/empty")[0] == b""


def test_makepath_under_parents_created_with_an_incompatible_acl(zk):
    # kazoo's test_create_makepath_incompatible_acls, in a chroot below the test's base
    root = zk.base + "/chroot"
    zk.ensure_path(root)
    owner = KazooClient(hosts=HOSTS + root, timeout=10,
                        auth_data=[("digest", make_digest_acl_credential("username", "password"))])
    owner.start(timeout=15)
    stranger = KazooClient(hosts=HOSTS + root, timeout=10)
    stranger.start(timeout=15)
    try:
        owner.create("/1/2", b"val2", makepath=True, acl=CREATOR_ALL_ACL)
        assert owner.get_acls("/1")[0] == owner.get_acls("/1/2")[0], "parents take the same ACL"
        with pytest.raises(NoAuthError):
            stranger.create("/1/2/3/4/5", b"val2", makepath=True)
    finally:
        owner.delete("/", recursive=True)
        owner.stop()
        owner.close()
        stranger.stop()
        stranger.close()
    assert zk.exists(root) is None


def test_makepath_creates_parents_with_the_acl_then_the_create_fails(zk):
    # an ACL without CREATE: makepath creates the first missing parent with it, and the next create
    # below that parent is refused
    acl = make_digest_acl("alice", "secret", read=True)
    with pytest.raises(NoAuthError):
        zk.create(zk.base + "/a/b/c", b"x", acl=[acl], makepath=True)
    zk.add_auth("digest", "alice:secret")
    acls, _ = zk.get_acls(zk.base + "/a")
    # without ADMIN, ZooKeeper 3.9 hides the digest's hash: compare perms, scheme and user
    assert [(a.perms, a.id.scheme, a.id.id.split(":")[0]) for a in acls] == [(acl.perms, "digest", "alice")]
    assert zk.exists(zk.base + "/a/b") is None


def test_reconfig_is_refused_and_the_session_stays(zk):
    # reconfig (op 16) with reconfig disabled: ReconfigDisabled, and the same session answers on
    session = zk.client_id
    with pytest.raises(ReconfigDisabledError):
        zk.reconfig(joining="server.100=127.0.0.1:2889:3888;2181", leaving=None, new_members=None)
    assert zk.exists(zk.base) is not None
    assert zk.client_id == session
    assert zk.connected
