package io.hdfl.federation;

import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;

/** Opens a peer's own connection (MQTT to a broker, or the in-process loopback). */
@FunctionalInterface
public interface PeerConnector {
  Transport connect(String clientId) throws TransportException;
}
