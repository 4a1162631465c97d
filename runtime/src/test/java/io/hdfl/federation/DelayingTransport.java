package io.hdfl.federation;

import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Fault injection: a slow peer, whose inbox deliveries arrive {@code delayMillis} late. */
final class DelayingTransport extends ForwardingTransport {
  private final long delayMillis;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "slow-peer");
    t.setDaemon(true);
    return t;
  });

  DelayingTransport(Transport inner, long delayMillis) {
    super(inner);
    this.delayMillis = delayMillis;
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    if (!topicFilter.endsWith("/in")) {
      inner.subscribe(topicFilter, qos, handler);
      return;
    }
    inner.subscribe(topicFilter, qos, (topic, payload, retained) ->
        timer.schedule(() -> handler.onMessage(topic, payload, retained), delayMillis, TimeUnit.MILLISECONDS));
  }

  @Override
  public void close() {
    timer.shutdownNow();
    super.close();
  }
}
