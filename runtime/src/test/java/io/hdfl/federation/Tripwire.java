package io.hdfl.federation;

import io.hdfl.transport.TopicFilter;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an action (kill a peer, restart the broker) at a chosen moment of a run: once the peers
 * wrapped with one tripwire have, together, published their {@code n}-th message on topics matching
 * a filter. The action runs on its own thread, so the publishing peer carries on meanwhile (or, for
 * {@link #inline}, on the publishing thread).
 */
final class Tripwire {
  private final String filter;
  private final int n;
  private final Runnable action;
  private final boolean inline;
  private final AtomicInteger published = new AtomicInteger();

  Tripwire(String filter, int n, Runnable action) {
    this(filter, n, action, false);
  }

  private Tripwire(String filter, int n, Runnable action, boolean inline) {
    TopicFilter.checkFilter(filter);
    this.filter = filter;
    this.n = n;
    this.action = action;
    this.inline = inline;
  }

  /** A tripwire whose action runs on the publishing thread, before that publish returns. */
  static Tripwire inline(String filter, int n, Runnable action) {
    return new Tripwire(filter, n, action, true);
  }

  /** {@code t}, counting its publishes towards this tripwire. */
  Transport wrap(Transport t) {
    return new ForwardingTransport(t) {
      @Override
      public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
        inner.publish(topic, payload, qos, retained);
        if (TopicFilter.matches(filter, topic) && published.incrementAndGet() == n) {
          if (inline) {
            action.run();
            return;
          }
          Thread th = new Thread(action, "tripwire");
          th.setDaemon(true);
          th.start();
        }
      }
    };
  }
}
