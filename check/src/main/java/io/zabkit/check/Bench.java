package io.zabkit.check;

import io.zabkit.check.model.ReferenceModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/** The speed benchmark: generate a reference history, check it from disk, print ops/s, wall time, peak heap. */
final class Bench {
  private Bench() {}

  static int run(long invocations, int sessions, long seed, double infoProbability, String keep) {
    try {
      Path file = keep != null ? Path.of(keep) : Files.createTempFile("zk-check-bench-", ".edn");
      ReferenceModel.Options o = new ReferenceModel.Options(seed, invocations, sessions, 3, infoProbability, 0.0005);
      long g0 = System.nanoTime();
      long lines = Cli.writeHistory(file, o);
      long g1 = System.nanoTime();
      System.out.printf("bench: SEED=%d operations=%d sessions=%d servers=3 info-probability=%s history lines=%d (%.1f MB) generated in %.1f s%n", seed,
          invocations, sessions, infoProbability, lines, Files.size(file) / 1e6, (g1 - g0) / 1e9);
      System.gc();
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) p.resetPeakUsage();
      com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpu0 = os.getProcessCpuTime();
      long c0 = System.nanoTime();
      // each phase's line with the wall seconds since the check began, so the figures say where the time goes
      Result r = new ZkChecker().withProgress(m -> System.err.printf("bench: [%.1f s] %s%n", (System.nanoTime() - c0) / 1e9, m))
          .check(History.file(file));
      long c1 = System.nanoTime();
      long cpu = os.getProcessCpuTime() - cpu0;
      long peak = 0;
      for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
        if (p.getType() == MemoryType.HEAP) peak += p.getPeakUsage().getUsed();
      }
      double s = (c1 - c0) / 1e9;
      System.out.print(r.table());
      System.out.printf("bench: checked %d operations (%d history lines) in %.2f s wall, %.2f s CPU (all JVM threads; %d cores, load average %.1f): %.0f operations/s wall, %.0f lines/s wall; peak heap %.0f MB (max heap %.0f MB)%n",
          invocations, lines, s, cpu / 1e9, os.getAvailableProcessors(), os.getSystemLoadAverage(), invocations / s, lines / s,
          peak / 1e6, Runtime.getRuntime().maxMemory() / 1e6);
      if (keep == null) Files.delete(file);
      return Cli.exitCode(r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
