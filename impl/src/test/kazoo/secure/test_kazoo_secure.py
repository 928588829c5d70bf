"""kazoo over TLS (use_ssl) and SASL DIGEST-MD5 (sasl_options), against a server run.sh configures as
ZooKeeper's documentation shows: secureClientPort with the Netty factory and ssl.clientAuth=none, a JAAS
Server section with user alice, and the SASL authentication provider.

ZK_TLS_HOSTS: the secure client port; ZK_CA: the server's certificate (PEM), the only one the client trusts;
ZK_OTHER_CA: a certificate the server does not have.
"""
import os
import uuid

import pytest
from kazoo.client import KazooClient
from kazoo.exceptions import AuthFailedError, KazooException, NoAuthError
from kazoo.handlers.threading import KazooTimeoutError
from kazoo.security import ACL, Id, Permissions

HOSTS = os.environ["ZK_TLS_HOSTS"]
CA = os.environ["ZK_CA"]
OTHER_CA = os.environ["ZK_OTHER_CA"]
ALICE = {"mechanism": "DIGEST-MD5", "username": "alice", "password": "alice-secret"}


def client(ca=CA, sasl=None, timeout=10):
    c = KazooClient(hosts=HOSTS, timeout=timeout, use_ssl=True, ca=ca, verify_certs=True, sasl_options=sasl)
    return c


@pytest.fixture
def alice():
    c = client(sasl=ALICE)
    c.start(timeout=15)
    yield c
    c.stop()
    c.close()


def test_tls_client_creates_and_reads(alice):
    path = "/tls-" + uuid.uuid4().hex[:8]
    alice.create(path, b"over tls")
    assert alice.get(path)[0] == b"over tls"
    for i in range(10):  # more than one TLS record each way
        alice.create(path + "/c%d" % i, b"x" * 20000)
    assert len(alice.get_children(path)) == 10
    alice.delete(path, recursive=True)


def test_sasl_identity_is_enforced_by_acls(alice):
    path = "/sasl-" + uuid.uuid4().hex[:8]
    alice.create(path, b"alice only", acl=[ACL(Permissions.ALL, Id("sasl", "alice"))])
    assert alice.get(path)[0] == b"alice only"
    anonymous = client()
    anonymous.start(timeout=15)
    try:
        with pytest.raises(NoAuthError):
            anonymous.get(path)
    finally:
        anonymous.stop()
        anonymous.close()
    alice.delete(path)


def test_a_wrong_sasl_password_never_reads_what_alice_may(alice):
    # kazoo's start() may return before its SASL exchange fails (it does on both systems): what counts is
    # that the client never reads as alice
    path = "/alice-" + uuid.uuid4().hex[:8]
    alice.create(path, b"alice only", acl=[ACL(Permissions.ALL, Id("sasl", "alice"))])
    wrong = client(sasl=dict(ALICE, password="not-her-secret"), timeout=3)
    try:
        try:
            wrong.start(timeout=6)
        except (AuthFailedError, KazooTimeoutError):
            pass
        with pytest.raises((KazooException, KazooTimeoutError)):
            wrong.get_async(path).get(timeout=5)
    finally:
        wrong.stop()
        wrong.close()
        alice.delete(path)


def test_a_client_that_does_not_trust_the_server_never_connects():
    stranger = client(ca=OTHER_CA, timeout=3)
    with pytest.raises(KazooTimeoutError):
        stranger.start(timeout=6)
    stranger.stop()
    stranger.close()
