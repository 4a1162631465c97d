package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.signal.SignalTimeoutException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Base of the sources fed by MQTT subscriptions: Paho delivers messages on its callback thread, the
 * subclass turns each into at most one sample, and this class hands samples to the consumer through a
 * bounded {@link SampleQueue} (drop oldest). It enforces the payload limit before any parsing, keeps
 * timestamps from going backwards, contains every failure of a message to that message (counted and
 * logged, never thrown at Paho or the consumer), and counts everything in {@link IngestCounters}.
 *
 * <p>A live stream has no end: {@link #next()} waits until a sample comes, and returns null only when
 * {@link #close()} is called from another thread while it waits.
 */
abstract class BrokerSignalSource implements SignalSource {

  final String name;
  final IngestCounters counters = new IngestCounters();
  final ThrottledLog log;
  final ArrivalClock clock;
  private final List<Channel> channels;
  private final double sampleRateHz;
  private final int maxPayloadBytes;
  private final SampleQueue queue;
  private volatile MqttSubscriber subscriber;
  private volatile boolean closed;
  private long lastTimestamp = Long.MIN_VALUE;   // guarded by this
  /** Samples dropped in a row for a timestamp before {@link #lastTimestamp} (guarded by this). */
  private int backwardsInARow;
  static final int FOLLOW_AFTER = 100;

  BrokerSignalSource(String name, List<Channel> channels, double sampleRateHz, int maxPayloadBytes,
      int queueCapacity, ArrivalClock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.channels = Channel.checkList(channels);
    this.sampleRateHz = sampleRateHz;
    this.maxPayloadBytes = maxPayloadBytes;
    this.queue = new SampleQueue(queueCapacity);
    this.log = new ThrottledLog(name);
    this.clock = clock;
  }

  /** Handles one message within the payload limit, on the callback thread; may call {@link #deliver}. */
  abstract void onMessage(String topic, byte[] payload);

  /** The connection to the broker was lost (messages may be missed until the reconnect). */
  void onConnectionLost() {}

  /** The connection was re-established and the subscriptions are being restored. */
  void onReconnected() {}

  /** Connects and subscribes; called once by the subclass's factory after construction. */
  final void start(BrokerSettings broker, List<String> filters) throws IOException {
    subscriber = MqttSubscriber.connect(broker, filters, new MqttSubscriber.Listener() {
      @Override
      public void onMessage(String topic, byte[] payload) {
        dispatch(topic, payload);
      }

      @Override
      public void onConnectionLost(String reason) {
        BrokerSignalSource.this.onConnectionLost();
      }

      @Override
      public void onReconnected() {
        BrokerSignalSource.this.onReconnected();
      }
    }, log);
  }

  /** The subscriber, for publishing (null before {@link #start}). */
  final MqttSubscriber subscriber() {
    return subscriber;
  }

  /** Entry point of every message (also used by tests without a broker). */
  final void dispatch(String topic, byte[] payload) {
    counters.messages.incrementAndGet();
    if (payload.length > maxPayloadBytes) {
      counters.oversize.incrementAndGet();
      log.warn("skipped a " + payload.length + "-byte message on " + ThrottledLog.printable(topic, 200)
          + ": larger than the " + maxPayloadBytes + "-byte payload limit");
      return;
    }
    try {
      onMessage(topic, payload);
    } catch (RuntimeException | StackOverflowError e) {
      counters.malformed.incrementAndGet();
      log.warn("skipped a message on " + ThrottledLog.printable(topic, 200) + " that could not be handled: "
          + ThrottledLog.printable(String.valueOf(e), 300));
    }
  }

  /**
   * Queues {@code s} unless its timestamp is before the previous sample's (then it is counted and
   * dropped). After {@value #FOLLOW_AFTER} such samples in a row the source's clock is taken to have
   * gone back (set back by NTP, an edge node restarted with another clock, or one sample stamped in
   * the future): the new timeline is followed, logged. Until the twenty-first session one sample
   * stamped in the year 2100 made the source drop every later one until the device restarted.
   */
  final synchronized void deliver(Sample s) {
    if (s.timestampNanos() < lastTimestamp) {
      if (++backwardsInARow < FOLLOW_AFTER) {
        counters.outOfOrder.incrementAndGet();
        log.warn("dropped a sample stamped " + s.timestampNanos() + " ns: earlier than the previous sample ("
            + lastTimestamp + " ns); timestamps of a source never go backwards");
        return;
      }
      log.info("the last " + backwardsInARow + " samples were all stamped before " + lastTimestamp + " ns (this one "
          + s.timestampNanos() + " ns): the source's clock went back; following it from here");
    }
    backwardsInARow = 0;
    lastTimestamp = s.timestampNanos();
    counters.samples.incrementAndGet();
    if (queue.offer(s)) {
      long n = counters.overflowed.incrementAndGet();
      if (Long.bitCount(n) == 1) {   // 1, 2, 4, 8, ...: a consumer that stays behind is not logged per sample
        log.warn("queue full (" + queue.capacity() + " samples): dropped the oldest sample; " + n
            + " dropped so far (the consumer is slower than the publisher)");
      }
    }
  }

  @Override
  public final List<Channel> channels() {
    return channels;
  }

  @Override
  public final double sampleRateHz() {
    return sampleRateHz;
  }

  @Override
  public final Sample next() throws IOException, InterruptedException {
    checkOpen();
    while (true) {
      Sample s = queue.poll(Long.MAX_VALUE);
      if (s != null || queue.isClosed()) {
        return s;
      }
    }
  }

  @Override
  public final Sample next(Duration timeout) throws IOException, InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be ≥ 0, got " + timeout);
    }
    checkOpen();
    long nanos;
    try {
      nanos = timeout.toNanos();
    } catch (ArithmeticException e) {
      nanos = Long.MAX_VALUE;
    }
    Sample s = queue.poll(nanos);
    if (s != null || queue.isClosed()) {
      return s;
    }
    throw new SignalTimeoutException(name, timeout);
  }

  /** Whether the client is connected to the broker now (it reconnects by itself). */
  public final boolean isConnected() {
    MqttSubscriber s = subscriber;
    return s != null && s.isConnected();
  }

  /** Disconnects and discards queued samples; a {@code next()} waiting in another thread returns null. */
  @Override
  public final void close() {
    if (closed) {
      return;
    }
    closed = true;
    queue.close();
    if (subscriber != null) {
      subscriber.close();
    }
  }

  final int queued() {
    return queue.size();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
