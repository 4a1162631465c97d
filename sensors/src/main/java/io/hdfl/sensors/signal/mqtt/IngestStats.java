package io.hdfl.sensors.signal.mqtt;

/**
 * Counters of a broker source since it was opened (a snapshot; every message is accounted for).
 *
 * @param messages MQTT messages received on the source's subscriptions
 * @param samples samples put in the queue for {@code next()}
 * @param oversize messages larger than the payload limit, skipped without being parsed
 * @param malformed messages that could not be parsed or lacked what the mapping requires (bad JSON,
 *     missing or unreadable timestamp, bad label field, undecodable Sparkplug payload, birth without
 *     sequence number or bdSeq, a topic outside the Sparkplug namespace), skipped
 * @param outOfOrder samples whose timestamp was earlier than the previous sample's, dropped (a
 *     source's timestamps never go backwards)
 * @param incomplete samples delivered with NaN for at least one channel that had no value
 * @param droppedIncomplete samples not delivered because a channel had no value
 *     ({@link MissingValuePolicy#DROP})
 * @param overflowed samples dropped from the front of the full queue (the consumer fell behind)
 * @param queued samples waiting in the queue now
 */
public record IngestStats(long messages, long samples, long oversize, long malformed, long outOfOrder,
    long incomplete, long droppedIncomplete, long overflowed, int queued) {

  /** Messages and samples discarded for any reason: oversize, malformed, out of order, dropped incomplete, overflowed. */
  public long discarded() {
    return oversize + malformed + outOfOrder + droppedIncomplete + overflowed;
  }
}
