package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.FederationException;
import io.hdfl.federation.ForwardingTransport;
import io.hdfl.federation.Topics;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeerAnnouncementsTest {
  private static final byte[] ONLINE = PeerAnnouncements.ONLINE.getBytes(StandardCharsets.UTF_8);

  /** A transport whose subscriptions never see the first {@code lost} messages on {@code topic}. */
  private static Transport losingFirst(Transport inner, String topic, int lost) {
    AtomicInteger dropped = new AtomicInteger();
    return new ForwardingTransport(inner) {
      @Override
      public void subscribe(String filter, int qos, MessageHandler handler) throws TransportException {
        inner.subscribe(filter, qos, (t, payload, retained) -> {
          if (t.equals(topic) && dropped.getAndIncrement() < lost) {
            return; // as the embedded Moquette once lost a retained announcement
          }
          handler.onMessage(t, payload, retained);
        });
      }
    };
  }

  @Test
  void aLostRetainedAnnouncementIsFetchedAgainWhileWaiting() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    Topics topics = new Topics("plant-7");
    Transport second = broker.connect("press-02");
    second.publish(topics.peer("press-02"), ONLINE, 1, true);
    Transport first = losingFirst(broker.connect("press-01"), topics.peer("press-02"), 1);
    PeerAnnouncements peers = PeerAnnouncements.follow(first, topics);
    first.publish(topics.peer("press-01"), ONLINE, 1, true);
    long t0 = System.nanoTime();
    peers.awaitAll(Set.of("press-01", "press-02"), Duration.ofSeconds(30));
    double waited = (System.nanoTime() - t0) / 1e9;
    // the retained announcement came again with the repeated subscription, not at the timeout
    assertTrue(waited < PeerAnnouncements.RESUBSCRIBE_EVERY.toSeconds() + 5, "waited " + waited + " s");
    first.close();
    second.close();
  }

  @Test
  void aPeerThatNeverAnnouncesItselfIsNamedAtTheTimeout() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    Topics topics = new Topics("plant-7");
    Transport first = broker.connect("press-01");
    PeerAnnouncements peers = PeerAnnouncements.follow(first, topics);
    first.publish(topics.peer("press-01"), ONLINE, 1, true);
    FederationException e = assertThrows(FederationException.class,
        () -> peers.awaitAll(Set.of("press-01", "press-02"), Duration.ofMillis(300)));
    assertTrue(e.getMessage().contains("[press-02] did not come online"), e.getMessage());
    first.close();
  }
}
