package org.eclipse.paho.client.mqttv3.internal.wire;

import java.io.IOException;
import java.io.InputStream;

/**
 * hdfl's own implementation of the input stream Paho 1.2.5 uses to parse every received MQTT packet
 * (same package, name and public API, so it takes the place of Paho's class when hdfl's classes come
 * first on the class path, as they do in Maven and in the {@code ./hdfl} launcher).
 *
 * <p>Why: Paho's class only implements the single-byte {@code read()}, so each received packet is
 * copied one byte at a time through a synchronized stream — about 60 ms for a 1 MB model (D=10000,
 * S=26) per hop on the development machine. Adding the bulk {@link #read(byte[], int, int)} brings a
 * hop to about 3 ms (README, "Federation"). {@code PahoPacketReadTest} fails if this class is ever not
 * the one loaded.
 */
public class CountingInputStream extends InputStream {
  private final InputStream in;
  private int counter;

  public CountingInputStream(InputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b != -1) {
      counter++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      counter += n;
    }
    return n;
  }

  /** Bytes read since creation or the last {@link #resetCounter()}. */
  public int getCounter() {
    return counter;
  }

  public void resetCounter() {
    counter = 0;
  }
}
