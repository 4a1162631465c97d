package io.hdfl.sensors.signal.mqtt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalTimeoutException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MqttJsonSignalSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private static MqttJsonSignalSource.Builder telemetry(String uri, String filter) {
    return MqttJsonSignalSource.builder(BrokerSettings.of(uri), filter)
        .channel("spindle.load", "%", "/spindle/load")
        .channel(JsonChannel.of("spindle.speed", "1/s", "/spindle/rpm").scaled(1 / 60.0, 0))
        .timestamp("/ts", TimestampFormat.EPOCH_MILLIS)
        .label("/quality", "nominal", "under", "over")
        .sampleRateHz(50);
  }

  private static String msg(long ts, double load, double rpm, String quality) {
    return "{\"ts\": " + ts + ", \"spindle\": {\"load\": " + load + ", \"rpm\": " + rpm + "}, \"quality\": \"" + quality + "\"}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.hdfl.sensors.signal.mqtt.TestBrokers#all")
  void samplesFromJsonMessages(String broker, String uri) throws Exception {
    String prefix = TestBrokers.uniquePrefix();
    try (MqttJsonSignalSource source = telemetry(uri, prefix + "/+/telemetry").maxPayloadBytes(256).open();
         TestPublisher pub = TestPublisher.connect(uri)) {
      assertEquals(List.of(new Channel("spindle.load", "%"), new Channel("spindle.speed", "1/s")), source.channels());
      assertEquals(50, source.sampleRateHz());
      assertTrue(source.isConnected());
      pub.publish(prefix + "/mill-3/telemetry", msg(1_714_558_530_250L, 41.5, 12000, "over"));
      pub.publish(prefix + "/mill-3/telemetry", "{\"ts\": 1714558530260, \"spindle\": ");   // malformed
      pub.publish(prefix + "/mill-3/telemetry", "{\"pad\": \"" + "x".repeat(300) + "\"}");   // oversize
      pub.publish(prefix + "/mill-3/telemetry", "{\"ts\": 1714558530270, \"spindle\": {\"load\": 40}}");
      pub.publish(prefix + "/other/ignored", msg(1, 1, 1, "nominal"));

      Sample a = source.next(WAIT);
      assertEquals(1_714_558_530_250_000_000L, a.timestampNanos());
      assertArrayEquals(new float[] {41.5f, 200f}, a.values());
      assertEquals(2, a.label());
      Sample b = source.next(WAIT);
      assertEquals(1_714_558_530_270_000_000L, b.timestampNanos());
      assertEquals(40f, b.value(0));
      assertTrue(Float.isNaN(b.value(1)), "a missing field is NaN by default");
      assertEquals(Sample.NO_LABEL, b.label());
      assertThrows(SignalTimeoutException.class, () -> source.next(Duration.ofMillis(100)));

      IngestStats st = source.stats();
      assertEquals(4, st.messages());
      assertEquals(2, st.samples());
      assertEquals(1, st.malformed());
      assertEquals(1, st.oversize());
      assertEquals(1, st.incomplete());
      assertEquals(0, st.queued());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.hdfl.sensors.signal.mqtt.TestBrokers#all")
  void fullQueueDropsTheOldest(String broker, String uri) throws Exception {
    String topic = TestBrokers.uniquePrefix() + "/telemetry";
    try (MqttJsonSignalSource source = telemetry(uri, topic).queueCapacity(2).open();
         TestPublisher pub = TestPublisher.connect(uri)) {
      for (int i = 1; i <= 5; i++) {
        pub.publish(topic, msg(i, i, 60, "nominal"));
      }
      Await.until(() -> source.stats().samples() == 5, WAIT, () -> source.stats().toString());
      assertEquals(3, source.stats().overflowed());
      assertEquals(4_000_000L, source.next(WAIT).timestampNanos());
      assertEquals(5_000_000L, source.next(WAIT).timestampNanos());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.hdfl.sensors.signal.mqtt.TestBrokers#all")
  void arrivalTimeNeverGoesBackAndCloseEndsAWaitingNext(String broker, String uri) throws Exception {
    String topic = TestBrokers.uniquePrefix() + "/v";
    MqttJsonSignalSource source = MqttJsonSignalSource.builder(BrokerSettings.of(uri), topic)
        .channel("v", "V", "").sampleRateHz(1).open();
    try (TestPublisher pub = TestPublisher.connect(uri)) {
      long before = System.currentTimeMillis() * 1_000_000L;
      pub.publish(topic, "230.5");
      pub.publish(topic, "231");
      Sample a = source.next(WAIT);
      Sample b = source.next(WAIT);
      assertEquals(230.5f, a.value(0));
      assertTrue(a.timestampNanos() >= before - 1_000_000_000L && b.timestampNanos() >= a.timestampNanos());
      CompletableFuture<Sample> waiting = CompletableFuture.supplyAsync(() -> {
        try {
          return source.next();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(100);
      source.close();
      assertNull(waiting.get(5, TimeUnit.SECONDS));
      assertThrows(IllegalStateException.class, source::next);
      source.close();   // idempotent
    } finally {
      source.close();
    }
  }

  @Test
  void unreachableBrokerFailsWithAReason() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      port = s.getLocalPort();
    }
    BrokerSettings nowhere = BrokerSettings.builder("tcp://127.0.0.1:" + port).connectTimeout(Duration.ofSeconds(2)).build();
    IOException e = assertThrows(IOException.class, () -> telemetry("tcp://127.0.0.1:1", "t").open().close());
    assertTrue(e.getMessage().startsWith("cannot connect to MQTT broker tcp://127.0.0.1:1"), e.getMessage());
    IOException e2 = assertThrows(IOException.class, () -> MqttJsonSignalSource.builder(nowhere, "t")
        .channel("v", "", "/v").sampleRateHz(1).open());
    assertTrue(e2.getMessage().contains("connection refused"), e2.getMessage());
  }

  /**
   * One sample stamped in the year 2100 (a publisher's clock gone wrong once): the samples after it
   * are dropped as going backwards, but after {@value BrokerSignalSource#FOLLOW_AFTER} in a row the
   * source follows their clock; it used to drop every later sample until the device restarted.
   */
  @Test
  void aSourceWhoseClockWentBackIsFollowedAfterAHundredSamplesInARow() throws Exception {
    try (MqttJsonSignalSource source = telemetry("tcp://127.0.0.1:1", "t").build()) {
      source.dispatch("t", msg(4_102_444_800_000L, 9, 60, "nominal").getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 150; i++) {
        source.dispatch("t", msg(1_000 + i, i, 60, "nominal").getBytes(StandardCharsets.UTF_8));
      }
      assertEquals(4_102_444_800_000L * 1_000_000L, source.next(Duration.ZERO).timestampNanos());
      for (int i = BrokerSignalSource.FOLLOW_AFTER - 1; i < 150; i++) {
        assertEquals((1_000L + i) * 1_000_000L, source.next(Duration.ZERO).timestampNanos(), "sample " + i);
      }
      assertThrows(SignalTimeoutException.class, () -> source.next(Duration.ZERO));
      assertEquals(BrokerSignalSource.FOLLOW_AFTER - 1, source.stats().outOfOrder(), "the dropped ones");
    }
  }

  @Test
  void carryForwardDropAndBackwardsTimestampsWithoutABroker() throws Exception {
    MqttJsonSignalSource.Builder b = telemetry("tcp://127.0.0.1:1", "t").missingValues(MissingValuePolicy.CARRY_FORWARD);
    try (MqttJsonSignalSource source = b.build()) {
      source.dispatch("t", msg(10, 1, 60, "nominal").getBytes(StandardCharsets.UTF_8));
      source.dispatch("t", "{\"ts\": 20, \"spindle\": {\"rpm\": 120}}".getBytes(StandardCharsets.UTF_8));
      source.dispatch("t", msg(15, 3, 60, "nominal").getBytes(StandardCharsets.UTF_8));   // goes back
      source.dispatch("t", "{\"ts\": 20, \"spindle\": {\"load\": 4}, \"quality\": 7.5}".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals(new float[] {1f, 1f}, source.next(Duration.ZERO).values());
      assertArrayEquals(new float[] {1f, 2f}, source.next(Duration.ZERO).values());
      assertThrows(SignalTimeoutException.class, () -> source.next(Duration.ZERO));
      IngestStats st = source.stats();
      assertEquals(1, st.outOfOrder());
      assertEquals(1, st.malformed(), "label 7.5");
      assertEquals(0, st.incomplete());
    }
    try (MqttJsonSignalSource source = telemetry("tcp://127.0.0.1:1", "t").missingValues(MissingValuePolicy.DROP).build()) {
      source.dispatch("t", "{\"ts\": 20, \"spindle\": {\"rpm\": 120}}".getBytes(StandardCharsets.UTF_8));
      assertThrows(SignalTimeoutException.class, () -> source.next(Duration.ZERO));
      assertEquals(1, source.stats().droppedIncomplete());
    }
  }

  @Test
  void configurationErrors() {
    BrokerSettings b = BrokerSettings.of("tcp://127.0.0.1:1");
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "a/#/b"));
    assertThrows(IllegalStateException.class, () -> MqttJsonSignalSource.builder(b, "t").sampleRateHz(1).build());
    assertThrows(IllegalStateException.class, () -> MqttJsonSignalSource.builder(b, "t").channel("v", "", "/v").build());
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "t").channel("v", "", "/v")
        .channel("v", "", "/w").sampleRateHz(1).build());
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "t").label("/l", "a", "a"));
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "t").timestamp("ts", TimestampFormat.ISO_8601));
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "t").queueCapacity(0));
    assertThrows(IllegalArgumentException.class, () -> MqttJsonSignalSource.builder(b, "t").maxPayloadBytes(10));
    assertThrows(IllegalArgumentException.class, () -> BrokerSettings.builder("tcp://h:1").qos(2));
  }
}
