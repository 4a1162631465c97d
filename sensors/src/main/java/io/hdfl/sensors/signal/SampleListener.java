package io.hdfl.sensors.signal;

/**
 * Receives samples pushed by a {@link SignalPump}, all on the pump's thread, in stream order.
 * Exactly one of {@link #onEnd()} or {@link #onError(Exception)} follows the last sample, unless the
 * pump was closed first.
 */
@FunctionalInterface
public interface SampleListener {

  /** One sample. An exception thrown here stops the pump and is passed to {@link #onError}. */
  void onSample(Sample sample);

  /** The source reached its end. */
  default void onEnd() {}

  /** The source (or {@link #onSample}) failed; the pump has stopped. */
  default void onError(Exception error) {}
}
