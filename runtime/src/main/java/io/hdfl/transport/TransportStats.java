package io.hdfl.transport;

/** Counters of a transport since it was created. */
public record TransportStats(long messagesSent, long bytesSent, long messagesReceived, long bytesReceived) {
  /** Counters accumulated since {@code earlier}. */
  public TransportStats since(TransportStats earlier) {
    return new TransportStats(messagesSent - earlier.messagesSent, bytesSent - earlier.bytesSent,
        messagesReceived - earlier.messagesReceived, bytesReceived - earlier.bytesReceived);
  }
}
