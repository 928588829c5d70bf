package io.zabkit.check;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * A history: operations in the order they happened. Re-iterable, because the checker reads it twice (the
 * first pass collects writes, the second checks reads and watches against the replayed writes) instead of
 * holding every operation in memory. A file-backed history streams from disk on each pass.
 */
public interface History extends Iterable<Op> {

  /** A history held in memory (what the simulator passes). */
  static History of(List<Op> ops) {
    return ops::iterator;
  }

  /**
   * A history file: one EDN operation map per line (blank and {@code ;} comment lines skipped). A file that
   * holds one EDN vector of maps (Jepsen's history.edn) is also accepted when its lines are the maps, e.g.
   * {@code [{...}\n {...}]}: the leading {@code [} and trailing {@code ]} are ignored.
   */
  static History file(Path path) {
    if (!Files.isReadable(path)) throw new IllegalArgumentException("cannot read history file " + path);
    return () -> new HistoryReader.Prefetch(new HistoryReader.FileIterator(path));
  }

  /** A line that is not a valid operation, with its 1-based line number. */
  final class BadLineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadLineException(Path file, long line, String why) {
      super((file == null ? "history" : file.toString()) + ":" + line + ": " + why);
    }
  }

}
