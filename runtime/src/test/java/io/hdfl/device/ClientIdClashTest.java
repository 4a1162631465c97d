package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.TransportException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The client-id hint on a transport failure: added where a second client with the device's id took
 * its connection (a real broker closes the first of two connections with one client id), not where
 * the connection was never lost.
 */
class ClientIdClashTest {
  private static final String ID = "plant-7-press-01";

  private static MqttSettings settings(String uri) {
    return MqttSettings.builder(uri).clientId(ID).connectTimeout(Duration.ofSeconds(2))
        .operationTimeout(Duration.ofSeconds(2)).maxReconnectDelay(Duration.ofSeconds(1)).build();
  }

  @Test
  void aFailureAfterASecondClientWithTheSameIdTookTheConnectionAsksAboutATwin() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        MqttTransport first = MqttTransport.connect(settings(broker.uri()))) {
      TransportException failure = new TransportException("subscribe to hdfl/plant-7/final failed: not connected");
      assertSame(failure, ClientIdClash.afterConnect(failure, first, ID), "no hint while the connection was never lost");
      try (MqttTransport twin = MqttTransport.connect(settings(broker.uri()))) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (first.connectionLosses() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertTrue(first.connectionLosses() > 0, "the broker closed the first connection");
        TransportException hinted = ClientIdClash.afterConnect(failure, first, ID);
        assertTrue(hinted.getMessage().startsWith(failure.getMessage() + " (this device's connection was closed "),
            hinted.getMessage());
        assertTrue(hinted.getMessage().endsWith("since it connected; if the broker answers other clients: is another "
            + "device connected as client '" + ID + "', that is with this peer.id?)"), hinted.getMessage());
        assertSame(failure, hinted.getCause());
        twin.close();
      }
    }
  }

  @Test
  void aConnectWithoutAnswerAsksAboutATwinAndOtherConnectFailuresAreKept() {
    TransportException unanswered = new TransportException("cannot connect to tcp://127.0.0.1:1883: no answer within 10 s");
    assertEquals(unanswered.getMessage() + " (if the broker answers other clients: is another device connected as "
        + "client '" + ID + "', that is with this peer.id?)", ClientIdClash.onConnect(unanswered, ID).getMessage());
    TransportException refused = new TransportException("cannot connect to tcp://127.0.0.1:1: connection refused");
    assertSame(refused, ClientIdClash.onConnect(refused, ID));
  }
}
