package io.hdfl.federation;

import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;

/** Fault injection: a peer whose subscriptions never deliver anything (it is connected but dead). */
final class DeafTransport extends ForwardingTransport {
  DeafTransport(Transport inner) {
    super(inner);
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) {
    // drops the subscription: nothing is ever delivered
  }
}
