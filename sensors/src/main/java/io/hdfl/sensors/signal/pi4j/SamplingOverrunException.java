package io.hdfl.sensors.signal.pi4j;

import java.io.IOException;

/** A {@link PolledSignalSource} with {@link OverrunPolicy#FAIL} could not keep its schedule. */
public final class SamplingOverrunException extends IOException {

  private static final long serialVersionUID = 1L;

  public SamplingOverrunException(String message) {
    super(message);
  }
}
