package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A star client records each update it sends before the update leaves, and sends none it could not record. */
class StarClientReleasesTest {
  @TempDir Path dir;


  /** Every update sent is in the record, in its round, before the aggregator averages it. */
  @Test
  void eachUpdateIsRecordedBeforeItIsSent() throws Exception {
    FederationSettings s = FederationFixture.star(2, 10).build();
    LoopbackBroker broker = new LoopbackBroker();
    Path file = dir.resolve("releases.jsonl");
    List<String> sent = new CopyOnWriteArrayList<>();
    Transport watcher = broker.connect("watcher");
    watcher.subscribe(new Topics(s.federation()).starUpdate("client-001"), 1, (topic, payload, retained) -> {
      try {
        sent.add(Files.readString(file)); // what the record held when the update reached the broker
      } catch (java.io.IOException e) {
        sent.add("unreadable");
      }
    });
    PrivacyLedger ledger = PrivacyLedger.inMemory(s.ledgerSettings());
    try (StarClient c = new StarClient(FederationFixture.context("client-001", s, broker), FederationFixture.shards(1, 20).get(0))
        .recordingReleases(ReleaseLog.open(file));
        StarAggregator agg = new StarAggregator(FederationFixture.context("aggregator", s, broker), 1, FederationFixture.CLASSES, ledger)) {
      c.start();
      agg.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (ledger.size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(4, ledger.size(), "2 rounds x (1 update + 1 aggregate)");
    }
    List<String> record = Files.readAllLines(file);
    assertEquals(List.of(1, 2), record.stream().map(l -> LedgerCodec.parse(l).round()).toList());
    assertEquals(ledger.lines().get(0).text(), record.get(0), "the very line the aggregator recorded");
    assertTrue(sent.get(0).contains(record.get(0)), "recorded before it was sent");
  }

  /** A record that cannot be written (here its directory is a file): no update leaves, and the client stops. */
  @Test
  void anUpdateThatCannotBeRecordedIsNotSentAndTheClientStops() throws Exception {
    FederationSettings s = FederationFixture.star(2, 10).build();
    LoopbackBroker broker = new LoopbackBroker();
    Path blocked = Files.writeString(dir.resolve("not-a-directory"), "x").resolve("releases.jsonl");
    List<byte[]> sent = new CopyOnWriteArrayList<>();
    broker.connect("watcher").subscribe(new Topics(s.federation()).starUpdate("client-001"), 1,
        (topic, payload, retained) -> sent.add(payload));
    try (StarClient c = new StarClient(FederationFixture.context("client-001", s, broker), FederationFixture.shards(1, 20).get(0))
        .recordingReleases(ReleaseLog.open(blocked));
        StarAggregator agg = new StarAggregator(FederationFixture.context("aggregator", s, broker), 1, FederationFixture.CLASSES,
            PrivacyLedger.inMemory(s.ledgerSettings()))) {
      c.start();
      agg.start();
      ExecutionException e = assertThrows(ExecutionException.class, () -> c.failure().get(20, TimeUnit.SECONDS));
      assertTrue(e.getCause() instanceof java.io.IOException, e.getCause().toString());
      Thread.sleep(300);
      assertEquals(0, sent.size(), "no update left the client");
    }
  }
}
