package io.hdfl.sensors.signal.mqtt;

import static io.hdfl.sensors.signal.mqtt.TestEdgeNode.alias;
import static io.hdfl.sensors.signal.mqtt.TestEdgeNode.birth;
import static io.hdfl.sensors.signal.mqtt.TestEdgeNode.named;
import static org.eclipse.tahu.message.model.MessageType.DBIRTH;
import static org.eclipse.tahu.message.model.MessageType.DDATA;
import static org.eclipse.tahu.message.model.MessageType.DDEATH;
import static org.eclipse.tahu.message.model.MessageType.NBIRTH;
import static org.eclipse.tahu.message.model.MessageType.NDATA;
import static org.eclipse.tahu.message.model.MessageType.NDEATH;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalTimeoutException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.MetricDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Sparkplug state machine through the source, without a broker: real Tahu payloads, dispatched directly. */
class SparkplugSessionTest {

  private static final float NAN = Float.NaN;
  private final long[] mono = {0};
  private final TestEdgeNode node = new TestEdgeNode("plant1", "gw7", 3);
  private SparkplugSignalSource src;

  private SparkplugSignalSource.Builder builder() {
    SparkplugSignalSource.Builder b = SparkplugSignalSource.builder(BrokerSettings.of("tcp://127.0.0.1:1"), "plant1", "gw7")
        .metric(SparkplugMetric.ofDevice("mill", "Spindle/Load", "spindle.load", "%"))
        .metric(SparkplugMetric.ofDevice("mill", "Spindle/Speed", "spindle.speed", "1/s").scaled(1 / 60.0, 0))
        .metric(SparkplugMetric.ofNode("Supply/Voltage", "supply.voltage", "V"))
        .sampleRateHz(10);
    b.clock = new ArrivalClock(() -> mono[0], 7_000_000_000L);
    return b;
  }

  private SparkplugSignalSource open(SparkplugSignalSource.Builder b) {
    src = b.build();
    return src;
  }

  @AfterEach
  void close() {
    if (src != null) {
      src.close();
    }
  }

  private void send(String topic, byte[] payload) {
    src.dispatch(topic, payload);
  }

  private Sample take() throws Exception {
    return src.next(Duration.ZERO);
  }

  private void none() {
    assertThrows(SignalTimeoutException.class, () -> src.next(Duration.ZERO));
  }

  private void births() {
    send(node.topic(NBIRTH), node.nbirth(birth("Supply/Voltage", 1, MetricDataType.Float, 230f),
        birth("Other", 2, MetricDataType.Double, 1.0)));
    send(node.topic(DBIRTH, "mill"), node.dbirth(1_500,
        birth("Spindle/Load", 10, MetricDataType.Float, 40f),
        birth("Spindle/Speed", 11, MetricDataType.Int32, 12000),
        birth("Quality/Class", 12, MetricDataType.String, "nominal"),
        birth("Extra", 13, MetricDataType.Double, 2.0)));
  }

  private static void assertValues(float[] expected, Sample s) {
    assertArrayEquals(expected, s.values(), () -> Arrays.toString(s.values()));
  }

  @Test
  void birthsDefineAliasesAndDataCarriesForward() throws Exception {
    open(builder().labelMetric("mill", "Quality/Class", "nominal", "under", "over"));
    assertEquals(List.of(new Channel("spindle.load", "%"), new Channel("spindle.speed", "1/s"),
        new Channel("supply.voltage", "V")), src.channels());
    assertTrue(src.isStale());
    send(node.topic(NBIRTH), node.nbirth(birth("Supply/Voltage", 1, MetricDataType.Float, 230f),
        birth("Other", 2, MetricDataType.Double, 1.0)));
    assertTrue(src.isStale(), "the device has not been born yet");
    send(node.topic(DBIRTH, "mill"), node.dbirth(1_500,
        birth("Spindle/Load", 10, MetricDataType.Float, 40f),
        birth("Spindle/Speed", 11, MetricDataType.Int32, 12000),
        birth("Quality/Class", 12, MetricDataType.String, "nominal"),
        birth("Extra", 13, MetricDataType.Double, 2.0)));
    assertFalse(src.isStale(), src.state());
    none();   // births define and seed, they do not sample

    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 42f), alias(13, MetricDataType.Double, 5.0)));
    Sample s = take();
    assertEquals(2_000_000_000L, s.timestampNanos());
    assertValues(new float[] {42f, 200f, 230f}, s);
    assertEquals(0, s.label());

    send(node.topic(NDATA), node.data(2_100, alias(1, MetricDataType.Float, 231f)));
    assertValues(new float[] {42f, 200f, 231f}, take());

    send(node.topic(DDATA, "mill"), node.data(2_200, alias(11, MetricDataType.Int32, 6000),
        alias(12, MetricDataType.String, "over")));
    s = take();
    assertValues(new float[] {42f, 100f, 231f}, s);
    assertEquals(2, s.label());

    // metrics may also be named in data messages
    send(node.topic(DDATA, "mill"), node.data(2_300, named("Spindle/Load", MetricDataType.Float, 43f)));
    assertValues(new float[] {43f, 100f, 231f}, take());

    SparkplugStats st = src.stats();
    assertEquals(2, st.births());
    assertEquals(4, st.ingest().samples());
    assertEquals(0, st.ingest().malformed());
    assertEquals(0, st.ingest().incomplete());
    assertEquals(0, st.sequenceGaps());
  }

  @Test
  void missingMetricAsNanOrDropped() throws Exception {
    open(builder().missingValues(MissingValuePolicy.NAN));
    births();
    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 42f)));
    assertValues(new float[] {42f, NAN, NAN}, take());
    assertEquals(1, src.stats().ingest().incomplete());
    src.close();

    TestEdgeNode n2 = new TestEdgeNode("plant1", "gw7", 1);
    SparkplugSignalSource.Builder b = SparkplugSignalSource.builder(BrokerSettings.of("tcp://127.0.0.1:1"), "plant1", "gw7")
        .metric(SparkplugMetric.ofDevice("mill", "Spindle/Load", "spindle.load", "%"))
        .metric(SparkplugMetric.ofDevice("mill", "Spindle/Speed", "spindle.speed", "rpm"))
        .missingValues(MissingValuePolicy.DROP).sampleRateHz(10);
    open(b);
    send(n2.topic(NBIRTH), n2.nbirth());
    send(n2.topic(DBIRTH, "mill"), n2.dbirth(1_000, birth("Spindle/Load", 10, MetricDataType.Float, 40f),
        birth("Spindle/Speed", 11, MetricDataType.Int32, 12000)));
    send(n2.topic(DDATA, "mill"), n2.data(2_000, alias(10, MetricDataType.Float, 42f)));
    none();
    assertEquals(1, src.stats().ingest().droppedIncomplete());
    send(n2.topic(DDATA, "mill"), n2.data(2_100, alias(10, MetricDataType.Float, 43f), alias(11, MetricDataType.Int32, 100)));
    assertValues(new float[] {43f, 100f}, take());
  }

  @Test
  void sequenceGapDiscardsUntilRebirthAndForgetsValues() throws Exception {
    open(builder());
    births();
    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 42f)));
    take();
    node.lose();
    send(node.topic(DDATA, "mill"), node.data(2_100, alias(10, MetricDataType.Float, 99f)));
    none();
    assertEquals(1, src.stats().sequenceGaps());
    assertTrue(src.isStale());
    send(node.topic(DDATA, "mill"), node.data(2_200, alias(10, MetricDataType.Float, 98f)));
    none();
    assertEquals(1, src.stats().awaitingBirth());

    // the rebirth: NBIRTH alone, so the device's values must not be carried from before the gap
    send(node.topic(NBIRTH), node.nbirth(birth("Supply/Voltage", 1, MetricDataType.Float, 229f)));
    send(node.topic(NDATA), node.data(2_300, alias(1, MetricDataType.Float, 228f)));
    Sample s = take();
    assertValues(new float[] {NAN, NAN, 228f}, s);
    assertEquals(1, src.stats().ingest().incomplete());
    send(node.topic(DDATA, "mill"), node.data(2_400, alias(10, MetricDataType.Float, 50f)));
    none();   // the device has not been born again
    send(node.topic(DBIRTH, "mill"), node.dbirth(2_500, birth("Spindle/Load", 10, MetricDataType.Float, 51f),
        birth("Spindle/Speed", 11, MetricDataType.Int32, 600)));
    send(node.topic(DDATA, "mill"), node.data(2_600, alias(10, MetricDataType.Float, 52f)));
    assertValues(new float[] {52f, 10f, 228f}, take());
    assertFalse(src.isStale());
  }

  @Test
  void sequenceWrapsAt255AndOtherDevicesCount() throws Exception {
    open(builder());
    births();
    for (int i = 0; i < 600; i++) {
      if (i % 7 == 3) {   // a device this source does not read still uses the node's sequence numbers
        send(node.topic(DDATA, "lathe"), node.data(3_000 + i, alias(1, MetricDataType.Float, 1f)));
        continue;
      }
      send(node.topic(DDATA, "mill"), node.data(3_000 + i, alias(10, MetricDataType.Float, (float) i)));
      assertEquals(i, take().value(0));
    }
    assertEquals(0, src.stats().sequenceGaps());
    assertEquals(0, src.stats().ingest().malformed());
  }

  @Test
  void rebirthRequestsAreThrottled() throws Exception {
    open(builder().requestRebirth(true).rebirthInterval(Duration.ofSeconds(10)));
    src.session().start();
    assertEquals(1, src.stats().rebirthRequests());
    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 42f)));
    assertEquals(1, src.stats().awaitingBirth());
    assertEquals(1, src.stats().rebirthRequests(), "within the interval");
    births();
    node.lose();
    send(node.topic(DDATA, "mill"), node.data(2_100, alias(10, MetricDataType.Float, 42f)));
    assertEquals(1, src.stats().rebirthRequests());
    mono[0] += 10_000_000_000L;
    send(node.topic(DDATA, "mill"), node.data(2_200, alias(10, MetricDataType.Float, 42f)));
    assertEquals(2, src.stats().rebirthRequests());
    byte[] ncmd = SparkplugSignalSource.rebirthRequestPayload();
    Metric m = new org.eclipse.tahu.message.SparkplugBPayloadDecoder().buildFromByteArray(ncmd, null).getMetrics().get(0);
    assertEquals(SparkplugSignalSource.REBIRTH_METRIC, m.getName());
    assertEquals(Boolean.TRUE, m.getValue());
  }

  @Test
  void nodeDeathNeedsTheBirthsBdSeq() throws Exception {
    open(builder().labelMetric("mill", "Quality/Class", "nominal", "under", "over"));
    births();
    send(node.topic(NDEATH), node.ndeath(99));
    assertEquals(1, src.stats().staleDeaths());
    assertFalse(src.isStale(), "a late will of another session changes nothing");
    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 42f)));
    assertEquals(0, take().label());

    send(node.topic(NDEATH), node.ndeath());
    assertEquals(1, src.stats().deaths());
    assertTrue(src.isStale());
    assertTrue(src.state().contains("dead"), src.state());
    send(node.topic(NDEATH), node.ndeath());
    assertEquals(2, src.stats().staleDeaths(), "already dead");
    send(node.topic(DDATA, "mill"), node.data(2_100, alias(10, MetricDataType.Float, 43f)));
    none();

    node.bdSeq = 4;
    births();
    assertFalse(src.isStale());
    send(node.topic(DDATA, "mill"), node.data(2_200, alias(10, MetricDataType.Float, 44f)));
    Sample s = take();
    assertValues(new float[] {44f, 200f, 230f}, s);
    assertEquals(0, s.label(), "the label metric's value in the new birth");
  }

  @Test
  void deviceDeathMakesItsChannelsAndLabelStale() throws Exception {
    open(builder().labelMetric("mill", "Quality/Class", "nominal", "under", "over"));
    births();
    send(node.topic(DDEATH, "mill"), node.data(2_000));
    assertEquals(1, src.stats().deaths());
    assertTrue(src.isStale());
    send(node.topic(NDATA), node.data(2_100, alias(1, MetricDataType.Float, 231f)));
    Sample s = take();
    assertValues(new float[] {NAN, NAN, 231f}, s);
    assertEquals(Sample.NO_LABEL, s.label());
  }

  @Test
  void labelTopic() throws Exception {
    open(builder().labelTopic("plant1/labels/gw7", "nominal", "under", "over"));
    births();
    String[][] cases = {{"under", "1"}, {"2", "2"}, {"", "-1"}, {"bogus", "-1"}, {" 0 ", "0"}, {"-1", "-1"}};
    for (String[] c : cases) {
      send("plant1/labels/gw7", c[0].getBytes(StandardCharsets.UTF_8));
      send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 1f)));
      assertEquals(Integer.parseInt(c[1]), take().label(), c[0]);
    }
    send("plant1/labels/gw7", new byte[] {(byte) 0xC3, (byte) 0x28});
    assertEquals(2, src.stats().badLabels());
  }

  @Test
  void nullHistoricalAndNonNumericValues() throws Exception {
    open(builder());
    births();
    Metric historical = alias(10, MetricDataType.Float, 1f);
    historical.setHistorical(true);
    send(node.topic(DDATA, "mill"), node.data(2_000, historical, alias(11, MetricDataType.Int32, 60)));
    assertValues(new float[] {40f, 1f, 230f}, take());
    Metric nul = alias(10, MetricDataType.Float, null);
    send(node.topic(DDATA, "mill"), node.data(2_100, nul, alias(11, MetricDataType.Int32, 120)));
    assertValues(new float[] {NAN, 2f, 230f}, take());
    assertEquals(1, src.stats().ingest().incomplete());
  }

  @Test
  void unsignedAndBooleanTypes() throws Exception {
    SparkplugSignalSource.Builder b = SparkplugSignalSource.builder(BrokerSettings.of("tcp://127.0.0.1:1"), "plant1", "gw7")
        .metric(SparkplugMetric.ofNode("u64", "u64", ""))
        .metric(SparkplugMetric.ofNode("u32", "u32", ""))
        .metric(SparkplugMetric.ofNode("on", "on", ""))
        .metric(SparkplugMetric.ofNode("i8", "i8", ""))
        .sampleRateHz(1);
    open(b);
    send(node.topic(NBIRTH), node.nbirth(birth("u64", 1, MetricDataType.UInt64, BigInteger.ONE),
        birth("u32", 2, MetricDataType.UInt32, 1L), birth("on", 3, MetricDataType.Boolean, false),
        birth("i8", 4, MetricDataType.Int8, (byte) 1)));
    send(node.topic(NDATA), node.data(2_000, alias(1, MetricDataType.UInt64, new BigInteger("18446744073709551615")),
        alias(2, MetricDataType.UInt32, 4_294_967_295L), alias(3, MetricDataType.Boolean, true),
        alias(4, MetricDataType.Int8, (byte) -128)));
    assertValues(new float[] {1.8446744e19f, 4.2949673e9f, 1f, -128f}, take());
  }

  @Test
  void malformedMessagesAreCountedAndTheirSeqIsMissing() throws Exception {
    open(builder());
    send(node.topic(DDATA, "mill"), node.data(1_000, alias(10, MetricDataType.Float, 1f)));
    assertEquals(1, src.stats().awaitingBirth(), "data before any birth");
    send(node.topic(NBIRTH), TestEdgeNode.encode(new org.eclipse.tahu.message.model.SparkplugBPayload.SparkplugBPayloadBuilder()
        .setSeq(0L).setTimestamp(new java.util.Date(1)).createPayload(), false));
    assertEquals(1, src.stats().ingest().malformed(), "NBIRTH without bdSeq");
    assertTrue(src.isStale());
    births();
    node.seq++;   // the next message is garbage that used up a sequence number
    send(node.topic(DDATA, "mill"), new byte[] {(byte) 0xFF, 1, 2, 3, 4});
    assertEquals(2, src.stats().ingest().malformed());
    send(node.topic(DDATA, "mill"), node.data(2_000, alias(10, MetricDataType.Float, 1f)));
    assertEquals(1, src.stats().sequenceGaps());
    send("spBv1.0/plant1/XDATA/gw7", new byte[0]);
    send("spBv1.0/plant1/NDATA/gw7/mill", new byte[0]);
    assertEquals(4, src.stats().ingest().malformed());
    // a DBIRTH that reuses an alias is rejected and leaves the device unborn
    births();
    send(node.topic(DBIRTH, "mill"), node.dbirth(3_000, birth("Spindle/Load", 10, MetricDataType.Float, 1f),
        birth("Spindle/Speed", 10, MetricDataType.Int32, 1)));
    assertEquals(5, src.stats().ingest().malformed());
    assertTrue(src.isStale());
  }

  @Test
  void timestampsPayloadArrivalMissingAndBackwards() throws Exception {
    open(builder());
    births();
    send(node.topic(DDATA, "mill"), node.dataWithoutTimestamp(alias(10, MetricDataType.Float, 1f)));
    none();
    assertEquals(1, src.stats().ingest().malformed());
    send(node.topic(DDATA, "mill"), node.data(5_000, alias(10, MetricDataType.Float, 1f)));
    take();
    send(node.topic(DDATA, "mill"), node.data(4_000, alias(10, MetricDataType.Float, 2f)));
    none();
    assertEquals(1, src.stats().ingest().outOfOrder());
    src.close();

    open(builder().arrivalTime());
    births();
    mono[0] = 250;
    send(node.topic(DDATA, "mill"), node.dataWithoutTimestamp(alias(10, MetricDataType.Float, 1f)));
    assertEquals(7_000_000_250L, take().timestampNanos());
  }

  @Test
  void oversizePayloadsAreSkippedBeforeDecoding() throws Exception {
    open(builder().maxPayloadBytes(64));
    send(node.topic(NBIRTH), new byte[65]);
    assertEquals(1, src.stats().ingest().oversize());
    assertEquals(0, src.stats().ingest().malformed());
  }

  @Test
  void configurationErrors() {
    assertThrows(IllegalArgumentException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "a/b", "e"));
    assertThrows(IllegalArgumentException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e+"));
    assertThrows(IllegalArgumentException.class, () -> SparkplugMetric.ofDevice("d#", "m", "c", ""));
    assertThrows(IllegalStateException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e")
        .sampleRateHz(1).build());
    assertThrows(IllegalStateException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e")
        .metric(SparkplugMetric.ofNode("m", "c", "")).build());
    assertThrows(IllegalArgumentException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e")
        .metric(SparkplugMetric.ofNode("m", "c", "")).metric(SparkplugMetric.ofNode("m", "c2", "")).sampleRateHz(1).build());
    assertThrows(IllegalArgumentException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e")
        .labelTopic("spBv1.0/g/labels"));
    assertThrows(IllegalArgumentException.class, () -> SparkplugSignalSource.builder(BrokerSettings.of("tcp://h:1"), "g", "e")
        .labelTopic("labels/+"));
    assertThrows(IllegalArgumentException.class, () -> BrokerSettings.of("http://h:1"));
  }

  /** Mutated Tahu payloads: the session never throws, every message is accounted for. */
  @Test
  void fuzzedPayloadsNeverEscape() {
    open(builder().labelMetric("mill", "Quality/Class", "nominal", "under", "over"));
    births();
    byte[][] seeds = {
        node.data(2_000, alias(10, MetricDataType.Float, 42f), alias(12, MetricDataType.String, "over")),
        node.dbirth(2_000, birth("Spindle/Load", 10, MetricDataType.Float, 40f),
            birth("Spindle/Speed", 11, MetricDataType.Int32, 12000)),
        node.nbirth(birth("Supply/Voltage", 1, MetricDataType.Float, 230f)),
        node.ndeath()};
    String[] topics = {node.topic(DDATA, "mill"), node.topic(DBIRTH, "mill"), node.topic(NBIRTH), node.topic(NDEATH)};
    Random rnd = new Random(6);
    for (int i = 0; i < 20_000; i++) {
      int k = rnd.nextInt(seeds.length);
      byte[] p = seeds[k].clone();
      for (int e = 1 + rnd.nextInt(3); e > 0 && p.length > 0; e--) {
        int at = rnd.nextInt(p.length);
        if (rnd.nextInt(4) == 0) {
          p = Arrays.copyOf(p, at);
        } else {
          p[at] = (byte) rnd.nextInt(256);
        }
      }
      byte[] payload = p;
      assertDoesNotThrow(() -> src.session().onMessage(topics[k], payload));
    }
    SparkplugStats st = src.stats();
    assertTrue(st.ingest().malformed() > 100, st.toString());
  }
}
