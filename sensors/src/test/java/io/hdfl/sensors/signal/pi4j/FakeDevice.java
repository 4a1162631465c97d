package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.List;

/** An input device whose reads take a set time on a {@link FakeClock} and return a counter. */
final class FakeDevice implements InputDevice {

  final String name;
  final List<Channel> channels;
  final FakeClock clock;
  long readNanos;
  long minReadNanos;
  int reads;
  int closes;
  IOException failNext;

  FakeDevice(String name, FakeClock clock, long readNanos, String... channelNames) {
    this.name = name;
    this.clock = clock;
    this.readNanos = readNanos;
    this.channels = java.util.Arrays.stream(channelNames).map(Channel::parseLabel).toList();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<Channel> channels() {
    return channels;
  }

  @Override
  public long minReadNanos() {
    return minReadNanos;
  }

  @Override
  public void read(float[] dst, int offset) throws IOException {
    if (failNext != null) {
      IOException e = failNext;
      failNext = null;
      throw e;
    }
    reads++;
    clock.advance(readNanos);
    for (int i = 0; i < channels.size(); i++) {
      dst[offset + i] = reads * 10 + i;
    }
  }

  @Override
  public void close() {
    closes++;
  }
}
