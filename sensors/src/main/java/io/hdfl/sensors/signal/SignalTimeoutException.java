package io.hdfl.sensors.signal;

import java.io.IOException;
import java.time.Duration;

/** No sample arrived within the timeout given to {@link SignalSource#next(Duration)}. */
public final class SignalTimeoutException extends IOException {

  private static final long serialVersionUID = 1L;

  private final Duration timeout;

  public SignalTimeoutException(String source, Duration timeout) {
    super(source + ": no sample within " + timeout.toMillis() + " ms");
    this.timeout = timeout;
  }

  /** The timeout that expired. */
  public Duration timeout() {
    return timeout;
  }
}
