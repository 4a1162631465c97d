package io.hdfl.sensors.signal.mqtt;

/**
 * What a broker source does with a channel that has no value in a message: the JSON field is absent,
 * null or not a number, or the Sparkplug metric is not in this NDATA/DDATA (Sparkplug edge nodes
 * usually report by exception: a metric is published only when it changed), or its value is null or
 * not numeric. Every sample still has one value per declared channel, so windowing sees a fixed layout.
 */
public enum MissingValuePolicy {
  /**
   * Use the channel's previous value: the last one received since the channel's publisher was last
   * known alive (for Sparkplug, values from the birth certificate count; a death, a sequence gap or a
   * lost connection forgets them, so stale values are never carried). A channel with no previous value
   * is NaN and the sample counts as incomplete. The default of {@link SparkplugSignalSource}.
   */
  CARRY_FORWARD,
  /**
   * The channel is NaN and the sample counts as incomplete; windowing's
   * {@link io.hdfl.sensors.window.NonFinitePolicy} then drops the windows holding it (or fails). The
   * default of {@link MqttJsonSignalSource}.
   */
  NAN,
  /** A sample missing any channel is not delivered (counted in {@link IngestStats#droppedIncomplete()}). */
  DROP
}
