package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.Topics;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PeerInstanceTest {
  private static final Topics TOPICS = new Topics("plant-7");

  /**
   * A second device under press-01's id, started after the first: its token reaches the first, which
   * stops naming the id; the second ignores the first's retained token (published before it started),
   * and so do both the token of an earlier run of the device, tokens that do not parse and a device's
   * own token coming back.
   */
  @Test
  void aSecondDeviceUnderTheSameIdIsToldAndAnEarlierRunsTokenIsNot() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    try (Transport earlier = broker.connect("earlier"); Transport a = broker.connect("a");
        Transport b = broker.connect("b"); Transport other = broker.connect("other")) {
      String topic = TOPICS.peerInstance("press-01");
      earlier.publish(topic, "500 abc".getBytes(StandardCharsets.US_ASCII), 1, true); // a finished run's token
      PeerInstance first = PeerInstance.watch(a, TOPICS, "press-01", () -> 1_000);
      for (String junk : new String[] {"", "online", "x y", "999999999999999999999 1", "2000 1 2", "2000 zz"}) {
        other.publish(topic, junk.getBytes(StandardCharsets.US_ASCII), 1, false);
      }
      other.publish(topic, "900 5".getBytes(StandardCharsets.US_ASCII), 1, false); // older than its start
      PeerInstance unrelated = PeerInstance.watch(other, TOPICS, "press-02", () -> 1_500); // another id
      Thread.sleep(100);
      assertFalse(first.twin().isDone(), "nothing but old tokens, junk and its own");
      PeerInstance second = PeerInstance.watch(b, TOPICS, "press-01", () -> 2_000);
      ExecutionException e = assertThrows(ExecutionException.class, () -> first.twin().get(5, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().startsWith("another device runs as peer.id 'press-01'"),
          e.getCause().getMessage());
      assertTrue(e.getCause().getMessage().contains("give each device its own peer.id"), e.getCause().getMessage());
      Thread.sleep(100);
      assertFalse(second.twin().isDone(), "the first's token was published before the second started");
      assertFalse(unrelated.twin().isDone());
    }
  }
}
