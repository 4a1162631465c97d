package io.hdfl.federation;

import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Fault injection: an MQTT connection the broker dropped right after accepting it. Its subscriptions
 * are kept and made again only when the transport is back: here when it next publishes, or after
 * {@code latestMillis} at the latest. Messages published to them meanwhile do not reach it.
 */
final class LateSubscribingTransport extends ForwardingTransport {
  private final List<Runnable> pending = new ArrayList<>();
  private boolean back;

  LateSubscribingTransport(Transport inner, long latestMillis) {
    super(inner);
    CompletableFuture.delayedExecutor(latestMillis, TimeUnit.MILLISECONDS).execute(this::comeBack);
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    synchronized (pending) {
      if (!back) {
        pending.add(() -> {
          try {
            inner.subscribe(topicFilter, qos, handler);
          } catch (TransportException e) {
            throw new IllegalStateException(e);
          }
        });
        return;
      }
    }
    inner.subscribe(topicFilter, qos, handler);
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    comeBack();
    inner.publish(topic, payload, qos, retained);
  }

  private void comeBack() {
    synchronized (pending) {
      if (!back) {
        back = true;
        pending.forEach(Runnable::run);
        pending.clear();
      }
    }
  }
}
