/**
 * Signal sources fed by MQTT subscriptions (DESIGN §7), over Eclipse Paho (MQTT 3.1.1, clean session,
 * automatic reconnect):
 *
 * <ul>
 *   <li>{@link io.hdfl.sensors.signal.mqtt.MqttJsonSignalSource}: one JSON message → one sample through a
 *       field mapping ({@link io.hdfl.sensors.signal.mqtt.JsonChannel}: channel ↔ JSON pointer, unit,
 *       scale, offset), timestamps from a field ({@link io.hdfl.sensors.signal.mqtt.TimestampFormat}) or
 *       the arrival time, optional label field;
 *   <li>{@link io.hdfl.sensors.signal.mqtt.SparkplugSignalSource}: a Sparkplug B edge node and its devices
 *       ({@link io.hdfl.sensors.signal.mqtt.SparkplugMetric}: channel ↔ node or device metric), with
 *       births, aliases, sequence checks, deaths, optional rebirth requests and labels.
 * </ul>
 *
 * <p>Both declare their channels up front, stamp samples in nanoseconds since the epoch that never go
 * backwards, fill channels missing from a message by a {@link io.hdfl.sensors.signal.mqtt.MissingValuePolicy},
 * and hand samples from Paho's callback thread to {@code next()} through a bounded queue that drops the
 * oldest sample when full. Payloads are untrusted: size-limited before parsing, parsed with bounded
 * parsers, and every message that cannot become a sample is counted
 * ({@link io.hdfl.sensors.signal.mqtt.IngestStats}, {@link io.hdfl.sensors.signal.mqtt.SparkplugStats})
 * and its reason logged (throttled), never thrown. Connection settings: {@link io.hdfl.sensors.signal.mqtt.BrokerSettings}.
 */
package io.hdfl.sensors.signal.mqtt;
