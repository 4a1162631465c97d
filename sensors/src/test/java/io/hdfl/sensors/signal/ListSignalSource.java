package io.hdfl.sensors.signal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/** A source over samples in memory, for tests; counts closes. */
public final class ListSignalSource implements SignalSource {

  private final List<Channel> channels;
  private final double rate;
  private final ArrayDeque<Sample> samples;
  private int closes;

  public ListSignalSource(List<Channel> channels, double rate, List<Sample> samples) {
    this.channels = Channel.checkList(channels);
    this.rate = rate;
    this.samples = new ArrayDeque<>(samples);
  }

  /** {@code n} channels named c0, c1, ... without units. */
  public static List<Channel> channels(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> Channel.of("c" + i)).toList();
  }

  @Override
  public List<Channel> channels() {
    return channels;
  }

  @Override
  public double sampleRateHz() {
    return rate;
  }

  @Override
  public Sample next() {
    if (closes > 0) {
      throw new IllegalStateException("closed");
    }
    return samples.poll();
  }

  @Override
  public Sample next(Duration timeout) {
    return next();
  }

  @Override
  public void close() {
    closes++;
  }

  public int closes() {
    return closes;
  }
}
