package io.zabkit.check.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The reference model's data tree: a plain map of znodes, written independently of the checker's replay so
 * that a bug in one does not hide in the other.
 */
final class RefTree {
  static final class Node {
    Object data;
    long version, cversion, czxid, mzxid, pzxid, ephemeralOwner;
    final TreeSet<String> children = new TreeSet<>();

    Node copy() {
      Node n = new Node();
      n.data = data;
      n.version = version;
      n.cversion = cversion;
      n.czxid = czxid;
      n.mzxid = mzxid;
      n.pzxid = pzxid;
      n.ephemeralOwner = ephemeralOwner;
      n.children.addAll(children);
      return n;
    }
  }

  /** A change a transaction made, for watches: path, event keyword name, and whether it is a child change. */
  record Change(String path, String event, boolean childWatch) {}

  final Map<String, Node> nodes = new HashMap<>();
  final Map<Long, TreeSet<String>> ephemerals = new HashMap<>();
  long lastZxid;

  RefTree() {
    nodes.put("/", new Node());
  }

  static String parentOf(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }

  /** Applies a transaction (already decided at the leader) and returns the changes it made. */
  List<Change> apply(Txn t) {
    List<Change> out = new ArrayList<>(3);
    lastZxid = t.zxid;
    if (t.error != null) return out;
    switch (t.kind) {
      case CREATE -> {
        Node n = new Node();
        n.data = t.data;
        n.czxid = n.mzxid = n.pzxid = t.zxid;
        n.ephemeralOwner = t.ephemeral ? t.session : 0;
        nodes.put(t.createdPath, n);
        Node p = nodes.get(parentOf(t.createdPath));
        p.children.add(t.createdPath.substring(t.createdPath.lastIndexOf('/') + 1));
        p.cversion++;
        p.pzxid = t.zxid;
        if (t.ephemeral) ephemerals.computeIfAbsent(t.session, k -> new TreeSet<>()).add(t.createdPath);
        out.add(new Change(t.createdPath, "node-created", false));
        out.add(new Change(parentOf(t.createdPath), "node-children-changed", true));
      }
      case DELETE -> delete(t.path, t.zxid, out);
      case SET_DATA -> {
        Node n = nodes.get(t.path);
        n.data = t.data;
        n.version++;
        n.mzxid = t.zxid;
        out.add(new Change(t.path, "node-data-changed", false));
      }
      case CLOSE_SESSION -> {
        TreeSet<String> owned = ephemerals.remove(t.session);
        if (owned != null) for (String p : owned) delete(p, t.zxid, out);
      }
    }
    return out;
  }

  private void delete(String path, long zxid, List<Change> out) {
    Node n = nodes.remove(path);
    Node p = nodes.get(parentOf(path));
    p.children.remove(path.substring(path.lastIndexOf('/') + 1));
    p.pzxid = zxid;
    if (n.ephemeralOwner != 0) {
      TreeSet<String> owned = ephemerals.get(n.ephemeralOwner);
      if (owned != null) owned.remove(path);
    }
    out.add(new Change(path, "node-deleted", false));
    out.add(new Change(parentOf(path), "node-children-changed", true));
  }

  /** Decides a write at the leader: the error (or null) and the name a create would get. */
  String decide(Txn t) {
    switch (t.kind) {
      case CREATE -> {
        Node p = nodes.get(parentOf(t.path));
        if (p == null) return "no-node";
        t.createdPath = t.sequential ? t.path + String.format("%010d", p.cversion) : t.path;
        if (nodes.containsKey(t.createdPath)) return "node-exists";
        if (p.ephemeralOwner != 0) return "no-children-for-ephemerals";
        return null;
      }
      case DELETE -> {
        Node n = nodes.get(t.path);
        if (n == null) return "no-node";
        if (t.expectedVersion != -1 && t.expectedVersion != n.version) return "bad-version";
        if (!n.children.isEmpty()) return "not-empty";
        return null;
      }
      case SET_DATA -> {
        Node n = nodes.get(t.path);
        if (n == null) return "no-node";
        if (t.expectedVersion != -1 && t.expectedVersion != n.version) return "bad-version";
        return null;
      }
      default -> {
        return null;
      }
    }
  }
}
