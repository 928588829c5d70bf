package io.zabkit.check.model;

/** One committed transaction of the reference model's single log. */
final class Txn {
  enum Kind { CREATE, DELETE, SET_DATA, CLOSE_SESSION }

  final long zxid;
  final Kind kind;
  final String path;
  final Object data;
  final long expectedVersion;
  final long session;
  final boolean ephemeral;
  final boolean sequential;
  String createdPath;
  String error;
  /** The pending request this transaction answers (null for an expiry). */
  Object origin;
  /** What applying it changed, for watches (filled when the leader applies it). */
  java.util.List<RefTree.Change> changes = java.util.List.of();

  Txn(long zxid, Kind kind, String path, Object data, long expectedVersion, long session, boolean ephemeral, boolean sequential) {
    this.zxid = zxid;
    this.kind = kind;
    this.path = path;
    this.data = data;
    this.expectedVersion = expectedVersion;
    this.session = session;
    this.ephemeral = ephemeral;
    this.sequential = sequential;
  }
}
