package io.hdfl.sensors.signal.mqtt;

/**
 * Counters of a {@link SparkplugSignalSource} (a snapshot).
 *
 * @param ingest the counters every broker source keeps
 * @param births accepted NBIRTH and DBIRTH messages of the configured edge node and devices
 * @param deaths NDEATH (with the current bdSeq) and DDEATH messages of the configured node and devices
 * @param staleDeaths NDEATH messages ignored because their bdSeq is not the current birth's (a late
 *     will of an earlier session)
 * @param sequenceGaps messages whose {@code seq} was not the previous one + 1 (mod 256): a message was
 *     lost, so the node's data is discarded until its next NBIRTH
 * @param awaitingBirth data and device births discarded because the node or device had not been born
 *     (no birth seen yet, or after a death, gap or reconnect)
 * @param rebirthRequests NCMD {@code Node Control/Rebirth} requests published
 * @param unknownMetrics data metrics that could not be resolved: an alias the birth did not define, or
 *     a metric the decoder could not type
 * @param badLabels label values that were not a class (the current label became "none")
 */
public record SparkplugStats(IngestStats ingest, long births, long deaths, long staleDeaths, long sequenceGaps,
    long awaitingBirth, long rebirthRequests, long unknownMetrics, long badLabels) {}
