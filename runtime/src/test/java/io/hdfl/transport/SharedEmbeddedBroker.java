package io.hdfl.transport;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One embedded broker for all test classes of a JVM that do not stop it (stopping costs Moquette's 2 s
 * graceful shutdown); it lives until the test JVM exits.
 */
final class SharedEmbeddedBroker {
  private static EmbeddedBroker broker;

  private SharedEmbeddedBroker() {}

  static synchronized String uri() {
    if (broker == null) {
      try {
        broker = new EmbeddedBroker().start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return broker.uri();
  }
}
