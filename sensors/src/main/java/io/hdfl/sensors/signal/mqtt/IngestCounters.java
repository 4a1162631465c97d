package io.hdfl.sensors.signal.mqtt;

import java.util.concurrent.atomic.AtomicLong;

/** The live counters behind {@link IngestStats} and {@link SparkplugStats}; written by the MQTT callback thread. */
final class IngestCounters {
  final AtomicLong messages = new AtomicLong();
  final AtomicLong samples = new AtomicLong();
  final AtomicLong oversize = new AtomicLong();
  final AtomicLong malformed = new AtomicLong();
  final AtomicLong outOfOrder = new AtomicLong();
  final AtomicLong incomplete = new AtomicLong();
  final AtomicLong droppedIncomplete = new AtomicLong();
  final AtomicLong overflowed = new AtomicLong();
  // Sparkplug only
  final AtomicLong births = new AtomicLong();
  final AtomicLong deaths = new AtomicLong();
  final AtomicLong staleDeaths = new AtomicLong();
  final AtomicLong sequenceGaps = new AtomicLong();
  final AtomicLong awaitingBirth = new AtomicLong();
  final AtomicLong rebirthRequests = new AtomicLong();
  final AtomicLong unknownMetrics = new AtomicLong();
  final AtomicLong badLabels = new AtomicLong();

  IngestStats ingest(int queued) {
    return new IngestStats(messages.get(), samples.get(), oversize.get(), malformed.get(), outOfOrder.get(),
        incomplete.get(), droppedIncomplete.get(), overflowed.get(), queued);
  }

  SparkplugStats sparkplug(int queued) {
    return new SparkplugStats(ingest(queued), births.get(), deaths.get(), staleDeaths.get(), sequenceGaps.get(),
        awaitingBirth.get(), rebirthRequests.get(), unknownMetrics.get(), badLabels.get());
  }
}
