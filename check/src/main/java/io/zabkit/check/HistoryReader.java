package io.zabkit.check;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Reading history files: line by line, parsed on a reader thread a bounded number of batches ahead. */
final class HistoryReader {
  private HistoryReader() {}

  /**
   * Parses on a second thread, a bounded number of batches ahead, so that reading overlaps checking on a
   * multi-core machine. Parse errors reach the consumer at the operation where they happened.
   */
  static final class Prefetch implements Iterator<Op> {
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

  static final class FileIterator implements Iterator<Op> {
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
            throw new History.BadLineException(path, lineNo, e.getMessage());
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
