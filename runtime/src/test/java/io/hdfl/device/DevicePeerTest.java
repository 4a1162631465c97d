package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.ForwardingTransport;
import io.hdfl.federation.Topics;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevicePeerTest {
  @TempDir Path dir;

  /**
   * A stopping device waits a few seconds at most for the broker to confirm its "offline"
   * announcement: a broker that never acknowledges (the embedded Moquette with a dead session loop)
   * held it for the whole operation timeout, a minute. Where the broker answers, it is published.
   */
  @Test
  void anOfflineAnnouncementTheBrokerDoesNotConfirmHoldsTheDeviceForSecondsOnly() throws Exception {
    Path file = dir.resolve("p.properties");
    Files.writeString(file, "federation = f\npeer.id = press-01\nrole = ring\nring.order = press-01\nbroker = "
        + "tcp://h:1883\nclasses = 2\nstate.dir = s\ndata.train = d\n");
    PeerConfig cfg = PeerConfig.read(file);
    Topics topics = new Topics("f");
    LoopbackBroker broker = new LoopbackBroker();
    CountDownLatch released = new CountDownLatch(1);
    ForwardingTransport unanswered = new ForwardingTransport(broker.connect("press-01")) {
      @Override
      public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
        try {
          released.await(); // no PUBACK comes
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        throw new TransportException("publish to " + topic + " not confirmed");
      }
    };
    long t0 = System.nanoTime();
    TransportException e = assertThrows(TransportException.class,
        () -> DevicePeer.announceOffline(unanswered, topics, cfg));
    double waited = (System.nanoTime() - t0) / 1e9;
    released.countDown();
    assertEquals("the broker did not confirm this device's offline announcement within 5 s", e.getMessage());
    assertTrue(waited >= 4.9 && waited < 15, "waited " + waited + " s");

    java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    broker.connect("watcher").subscribe(topics.peer("press-01"), 1,
        (t, payload, retained) -> seen.add(new String(payload, StandardCharsets.UTF_8)));
    DevicePeer.announceOffline(broker.connect("press-01b"), topics, cfg);
    long until = System.nanoTime() + 5_000_000_000L;
    while (seen.isEmpty() && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    assertEquals(java.util.List.of("offline"), seen);
  }
}
