package io.hdfl.device;

import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;

/**
 * The hint a device adds to a transport failure that a second device under its peer.id may have
 * caused. A broker hands a client id's connection to its newest client, so two devices with one
 * peer.id take it from each other: a connect can wait in vain, and a subscribe or publish of a
 * device whose connection was just taken fails as "not connected" or unanswered. {@link
 * PeerInstance} tells the twins once both hold a connection long enough to see each other's token;
 * before that (the embedded Moquette can hand the one client id back and forth for a while), only
 * these transport failures are seen, and without the hint they read as a broker problem.
 */
final class ClientIdClash {
  private ClientIdClash() {}

  /** A connect that failed for want of an answer: the broker may be serving another client with this id. */
  static TransportException onConnect(TransportException e, String clientId) {
    if (!String.valueOf(e.getMessage()).contains("no answer within")) {
      return e;
    }
    return new TransportException(e.getMessage() + " (if the broker answers other clients: " + question(clientId)
        + ")", e);
  }

  /**
   * A failure of {@code transport} after it connected: where the broker closed its connection since
   * then, another client with its id may have taken it. Unchanged where the connection was never lost.
   */
  static TransportException afterConnect(TransportException e, Transport transport, String clientId) {
    long losses = transport.connectionLosses();
    if (losses == 0) {
      return e;
    }
    return new TransportException(e.getMessage() + " (this device's connection was closed " + (losses == 1 ? "once"
        : losses + " times") + " since it connected; if the broker answers other clients: " + question(clientId) + ")",
        e);
  }

  private static String question(String clientId) {
    return "is another device connected as client '" + clientId + "', that is with this peer.id?";
  }
}
