package io.hdfl.federation;

import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import io.hdfl.transport.TransportStats;

/** Fault injection base: forwards everything to a real transport; subclasses bend one operation. */
public abstract class ForwardingTransport implements Transport {
  protected final Transport inner;

  protected ForwardingTransport(Transport inner) {
    this.inner = inner;
  }

  @Override
  public String clientId() {
    return inner.clientId();
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    inner.subscribe(topicFilter, qos, handler);
  }

  @Override
  public void unsubscribe(String topicFilter) throws TransportException {
    inner.unsubscribe(topicFilter);
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    inner.publish(topic, payload, qos, retained);
  }

  @Override
  public TransportStats stats() {
    return inner.stats();
  }

  @Override
  public boolean isConnected() {
    return inner.isConnected();
  }

  @Override
  public long connectionLosses() {
    return inner.connectionLosses();
  }

  @Override
  public void onReconnected(Runnable listener) {
    inner.onReconnected(listener);
  }

  @Override
  public void close() {
    inner.close();
  }
}
