package io.zabkit.check;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

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
    return () -> new Prefetch(new FileIterator(path));
  }

  /**
   * Parses on a second thread, a bounded number of batches ahead, so that reading overlaps checking on a
   * multi-core machine. Parse errors reach the consumer at the operation where they happened.
   */
  final class Prefetch implements Iterator<Op> {
    private static final int BATCH = 4096;
    private static final int BATCHES_AHEAD_MAX = 8;
    private static final Object END = new Object();
    private final java.util.concurrent.BlockingQueue<Object> queue = new java.util.concurrent.ArrayBlockingQueue<>(BATCHES_AHEAD_MAX);
    private Op[] batch = new Op[0];
    private int at;
    private boolean done;

    Prefetch(Iterator<Op> source) {
      Thread t = new Thread(() -> {
        try {
          while (source.hasNext()) {
            Op[] b = new Op[BATCH];
            int n = 0;
            while (n < BATCH && source.hasNext()) b[n++] = source.next();
            // a consumer that stopped early (an exception while checking) is not waited for forever
            if (!queue.offer(n == BATCH ? b : java.util.Arrays.copyOf(b, n), 5, java.util.concurrent.TimeUnit.MINUTES)) return;
          }
          queue.put(END);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          try {
            queue.put(e);
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
          }
        }
      }, "zk-check-reader");
      t.setDaemon(true);
      t.start();
    }

    @Override
    public boolean hasNext() {
      if (at < batch.length) return true;
      if (done) return false;
      Object next;
      try {
        next = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading the history", e);
      }
      if (next == END) {
        done = true;
        return false;
      }
      if (next instanceof RuntimeException e) {
        done = true;
        throw e;
      }
      batch = (Op[]) next;
      at = 0;
      return at < batch.length;
    }

    @Override
    public Op next() {
      if (!hasNext()) throw new NoSuchElementException();
      return batch[at++];
    }
  }

  /** A line that is not a valid operation, with its 1-based line number. */
  final class BadLineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadLineException(Path file, long line, String why) {
      super((file == null ? "history" : file.toString()) + ":" + line + ": " + why);
    }
  }

  final class FileIterator implements Iterator<Op> {
    private final Path path;
    private final BufferedReader in;
    private Op next;
    private long lineNo;
    private long opIndex;

    FileIterator(Path path) {
      this.path = path;
      try {
        this.in = Files.newBufferedReader(path, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open history " + path, e);
      }
      advance();
    }

    private void advance() {
      try {
        String line;
        while ((line = in.readLine()) != null) {
          lineNo++;
          String t = line.strip();
          if (t.startsWith("[")) t = t.substring(1).strip();
          if (t.endsWith("}]")) t = t.substring(0, t.length() - 1).strip();
          if (t.isEmpty() || Edn.isBlank(t)) continue;
          try {
            next = Op.fromEdn(Edn.read(t), opIndex++);
          } catch (RuntimeException e) {
            throw new BadLineException(path, lineNo, e.getMessage());
          }
          return;
        }
        next = null;
        in.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read history " + path + " at line " + lineNo, e);
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public Op next() {
      if (next == null) throw new NoSuchElementException();
      Op o = next;
      advance();
      return o;
    }
  }
}
