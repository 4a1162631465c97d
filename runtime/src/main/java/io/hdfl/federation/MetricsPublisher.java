package io.hdfl.federation;

import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.function.Consumer;

/** Publishes a peer's round reports as JSON on {@code hdfl/F/metrics/<peer>}, best effort. */
public final class MetricsPublisher implements Consumer<RoundReport> {
  private final Transport transport;
  private final String topic;

  public MetricsPublisher(Transport transport, Topics topics, String peerId) {
    this.transport = transport;
    this.topic = topics.metrics(peerId);
  }

  @Override
  public void accept(RoundReport report) {
    try {
      transport.publish(topic, report.toJson(), 1, false);
    } catch (TransportException e) {
      // metrics are best effort; the ledger is not
    }
  }
}
