package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's contract: exit codes, the option parser, where the summary goes and what it says. */
class CliTest {
  @TempDir Path dir;

  private static final String CREATE_OK = String.join("\n",
      "{:type :invoke, :process 0, :f :create, :value {:data \"a\", :mode :persistent}, :time 10, :session 1, :path \"/r0\"}",
      "{:type :ok, :process 0, :f :create, :value {:data \"a\", :mode :persistent, :created-path \"/r0\"}, :time 20, :session 1, :path \"/r0\", :zxid 4294967297}",
      "");
  private static final String ONLY_INFO = String.join("\n",
      "{:type :invoke, :process 0, :f :create, :value {:data \"a\", :mode :persistent}, :time 10, :session 1, :path \"/r0\"}",
      "{:type :info, :process 0, :f :create, :value {:data \"a\", :mode :persistent}, :time 20, :session 1, :path \"/r0\", :error :connection-loss}",
      "");

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @SuppressWarnings("unchecked")
  private static Map<Object, Object> summary(Path p) throws Exception {
    return (Map<Object, Object>) Edn.read(Files.readString(p));
  }

  @Test
  void helpWorksAndAMisspeltOptionIsAnError() throws Exception {
    assertEquals(0, Cli.run(new String[] {"--help"}));
    Path h = write("h.edn", CREATE_OK);
    assertEquals(2, Cli.run(new String[] {h.toString(), "--quite"}));
    assertEquals(2, Cli.run(new String[] {h.toString(), "--properties", "LinearisableWrites"}));
    assertEquals(2, Cli.run(new String[] {"generate", "--ops", "ten", "--out", dir.resolve("g.edn").toString()}));
    assertFalse(Files.exists(dir.resolve("h.zk-check.edn")), "a usage error writes nothing");
  }

  @Test
  void aCheckedHistoryIsValidAndItsSummaryGoesBesideIt() throws Exception {
    Path h = write("history.edn", CREATE_OK);
    assertEquals(0, Cli.run(new String[] {h.toString(), "--quiet"}));
    Map<Object, Object> s = summary(dir.resolve("zk-check.edn"));
    assertEquals(true, s.get(Keyword.of("valid?")));
    Map<?, ?> watch = (Map<?, ?>) s.get(Keyword.of("WatchOrdering"));
    assertEquals(Keyword.of("unknown"), watch.get(Keyword.of("valid?")), "a property that checked nothing is :unknown, not ok");
  }

  @Test
  void aHistoryWithNothingCheckableExits2AndIsNeverValid() throws Exception {
    Path h = write("info.edn", ONLY_INFO);
    assertEquals(2, Cli.run(new String[] {h.toString()}));
    Map<Object, Object> s = summary(dir.resolve("info.zk-check.edn"));
    assertEquals(Keyword.of("unknown"), s.get(Keyword.of("valid?")));
    assertEquals(Map.of(0L, Result.ABSENT), s.get(Keyword.of("placements")), "the :info create's invocation is :index 0");
  }

  @Test
  void onlyTheChosenPropertiesAreReportedAndOneThatCheckedNothingDecidesNothing() throws Exception {
    Path h = write("h.edn", CREATE_OK);
    assertEquals(2, Cli.run(new String[] {h.toString(), "--properties", "WatchOrdering"}));
    assertEquals(0, Cli.run(new String[] {h.toString(), "--properties", "LinearizableWrites,WatchOrdering"}));
    Map<Object, Object> s = summary(dir.resolve("h.zk-check.edn"));
    assertTrue(s.containsKey(Keyword.of("LinearizableWrites")));
    assertFalse(s.containsKey(Keyword.of("SyncReads")));
  }

  @Test
  void neverOverTheHistoryNorAJepsenResultsFile() throws Exception {
    Path h = write("history.edn", CREATE_OK);
    assertEquals(2, Cli.run(new String[] {h.toString(), "--out", h.toString()}));
    assertEquals(2, Cli.run(new String[] {h.toString(), "--out", dir.resolve("results.edn").toString()}));
    assertEquals(CREATE_OK, Files.readString(h));
  }
}
