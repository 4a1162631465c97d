package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.TransportException;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The client-id hint: added to a device's reason for stopping where a second client with its id took
 * its connection (a broker closes the first of two connections with one client id), not where the
 * connection was never lost; and to a connect left unanswered.
 */
class ClientIdClashTest {
  private static final String ID = "plant-7-press-01";

  private static MqttSettings settings(String uri, String id) {
    return MqttSettings.builder(uri).clientId(id).connectTimeout(Duration.ofSeconds(10))
        .operationTimeout(Duration.ofSeconds(5)).maxReconnectDelay(Duration.ofSeconds(1)).build();
  }

  @Test
  void onTheEmbeddedBrokerASecondClientWithTheSameIdMakesTheFirstAskAboutATwin() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      aSecondClientWithTheSameIdMakesTheFirstAskAboutATwin(broker.uri(), ID);
    }
  }

  @Test
  void onTheExternalBrokerASecondClientWithTheSameIdMakesTheFirstAskAboutATwin() throws Exception {
    String external = System.getenv("HDFL_TEST_BROKER");
    Assumptions.assumeTrue(external != null && !external.isBlank(), "HDFL_TEST_BROKER is not set");
    // an id of its own on a broker other runs share
    aSecondClientWithTheSameIdMakesTheFirstAskAboutATwin(external.trim(), "hdfl-test-clash-" + Long.toHexString(System.nanoTime()));
  }

  private static void aSecondClientWithTheSameIdMakesTheFirstAskAboutATwin(String uri, String id) throws Exception {
    try (MqttTransport first = MqttTransport.connect(settings(uri, id))) {
      assertEquals("", ClientIdClash.afterConnect(first, id), "no hint while the connection was never lost");
      MqttTransport twin = null;
      try {
        try {
          twin = MqttTransport.connect(settings(uri, id));
        } catch (TransportException unanswered) {
          // the embedded Moquette may leave the second CONNECT unanswered; it closes the first one all the same
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (first.connectionLosses() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertTrue(first.connectionLosses() > 0, "the broker closed the first connection");
        String hint = ClientIdClash.afterConnect(first, id);
        assertTrue(hint.startsWith(" (this device's connection was lost "), hint);
        assertTrue(hint.endsWith(" since it connected: the network, a broker restart, or another device connected as "
            + "client '" + id + "', that is with this peer.id?)"), hint);
      } finally {
        if (twin != null) {
          twin.close();
        }
      }
    }
  }

  @Test
  void aConnectWithoutAnswerAsksAboutATwinAndOtherConnectFailuresAreKept() {
    TransportException unanswered = new TransportException("cannot connect to tcp://127.0.0.1:1883: no answer within 10 s");
    TransportException hinted = ClientIdClash.onConnect(unanswered, ID);
    assertEquals(unanswered.getMessage() + " (if the broker answers other clients: is another device connected as "
        + "client '" + ID + "', that is with this peer.id?)", hinted.getMessage());
    assertSame(unanswered, hinted.getCause());
    TransportException refused = new TransportException("cannot connect to tcp://127.0.0.1:1: connection refused");
    assertSame(refused, ClientIdClash.onConnect(refused, ID));
  }
}
