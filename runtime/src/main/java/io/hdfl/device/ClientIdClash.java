package io.hdfl.device;

import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;

/**
 * The hint a device adds where a second device under its peer.id may be why it stops. A broker hands
 * a client id's connection to its newest client, so two devices with one peer.id take it from each
 * other: a connect can wait in vain, and a device whose connection was just taken fails to subscribe
 * or announce itself, or never hears from its peers. {@link PeerInstance} tells the twins once both
 * hold a connection long enough to see each other's token; before that (the embedded Moquette can
 * hand the one client id back and forth for a while) only such failures are seen, and without the
 * hint they read as a broker or network problem. Where the connection was lost for another reason
 * (the network, a broker restart), the hint names those too.
 */
final class ClientIdClash {
  private ClientIdClash() {}

  /** A connect that failed for want of an answer: the broker may be serving another client with this id. */
  static TransportException onConnect(TransportException e, String clientId) {
    if (!String.valueOf(e.getMessage()).contains("no answer within")) {
      return e;
    }
    return new TransportException(e.getMessage() + " (if the broker answers other clients: is " + twin(clientId) + ")",
        e);
  }

  /**
   * What to add to the reason a device stops after it connected: empty where its connection was never
   * lost, else how often it was and the causes that may be behind it, a twin among them.
   */
  static String afterConnect(Transport transport, String clientId) {
    long losses = transport.connectionLosses();
    if (losses == 0) {
      return "";
    }
    return " (this device's connection was lost " + (losses == 1 ? "once" : losses + " times") + " since it "
        + "connected: the network, a broker restart, or " + twin(clientId) + ")";
  }

  private static String twin(String clientId) {
    return "another device connected as client '" + clientId + "', that is with this peer.id?";
  }
}
