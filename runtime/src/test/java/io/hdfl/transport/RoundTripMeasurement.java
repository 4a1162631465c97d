package io.hdfl.transport;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Measures MQTT latency (not a test; run by hand): QoS 1, for a D=10000 x S=26 float32 model (1,040,000
 * bytes) and a 400 KB payload, against the embedded broker and any broker URLs given as arguments.
 *
 * <ul>
 *   <li>hop: publish on A until a subscriber in this JVM has received it (publish includes the PUBACK
 *       wait, as a peer's handoff does);
 *   <li>round trip: publish on A, an echo client republishes the payload on B (QoS 1), until received.
 * </ul>
 *
 * <p>Run: {@code java -cp runtime/target/classes:runtime/target/test-classes:DEPS
 * io.hdfl.transport.RoundTripMeasurement [tcp://127.0.0.1:1883 ...]}
 */
public final class RoundTripMeasurement {
  private static final int WARMUP = 50;
  private static final int ITERATIONS = 200;

  private RoundTripMeasurement() {}

  public static void main(String[] args) throws Exception {
    int[] sizes = {10_000 * 26 * 4, 400 * 1024};
    try (EmbeddedBroker embedded = new EmbeddedBroker().start()) {
      measureBroker("embedded Moquette", embedded.uri(), sizes);
    }
    for (String uri : args) {
      measureBroker(uri, uri, sizes);
    }
  }

  private static void measureBroker(String name, String uri, int[] sizes) throws Exception {
    String prefix = "hdfl-bench/" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "/";
    MqttSettings base = MqttSettings.builder(uri).build();
    BlockingQueue<byte[]> hops = new ArrayBlockingQueue<>(4);
    BlockingQueue<byte[]> echoes = new ArrayBlockingQueue<>(4);
    try (MqttTransport client = MqttTransport.connect(base.withClientId("bench-c-" + rnd()));
        MqttTransport echo = MqttTransport.connect(base.withClientId("bench-e-" + rnd()))) {
      echo.subscribe(prefix + "A", 1, (topic, payload, retained) -> {
        hops.add(payload);
        try {
          echo.publish(prefix + "B", payload, 1, false);
        } catch (TransportException e) {
          throw new IllegalStateException(e);
        }
      });
      client.subscribe(prefix + "B", 1, (topic, payload, retained) -> echoes.add(payload));
      for (int size : sizes) {
        byte[] payload = new byte[size];
        new Random(size).nextBytes(payload);
        double[] hop = new double[ITERATIONS];
        double[] rtt = new double[ITERATIONS];
        for (int i = -WARMUP; i < ITERATIONS; i++) {
          payload[0] = (byte) i;
          long t0 = System.nanoTime();
          client.publish(prefix + "A", payload, 1, false);
          byte[] h = hops.poll(10, TimeUnit.SECONDS);
          long t1 = System.nanoTime();
          byte[] back = echoes.poll(10, TimeUnit.SECONDS);
          long t2 = System.nanoTime();
          if (h == null || back == null || back.length != size || back[0] != payload[0]) {
            throw new IllegalStateException("lost or wrong echo at iteration " + i);
          }
          if (i >= 0) {
            hop[i] = (t1 - t0) / 1e6;
            rtt[i] = (t2 - t0) / 1e6;
          }
        }
        System.out.printf("%-24s %9d B  hop median %6.2f ms (p90 %6.2f)  round trip median %6.2f ms (p90 %6.2f)%n",
            name, size, pct(hop, 50), pct(hop, 90), pct(rtt, 50), pct(rtt, 90));
      }
    }
  }

  private static String rnd() {
    return Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFFFFFFL);
  }

  private static double pct(double[] v, int p) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
  }
}
