package io.hdfl.federation;

import java.io.IOException;

/**
 * Where a ring peer commits what it must not lose in a crash (a device's state directory; README
 * "Crash safety"). Each call returns once the state is durable: a received model before it is
 * acknowledged, the outgoing model before any of it (ledger line, frame) leaves the peer, its delivery
 * after the ack. Calls come from the transport's thread ({@link #received}) and the peer's worker.
 */
public interface RingJournal {
  /**
   * Persists a received model, as its plain frame, before it is acknowledged; keeps the one already
   * held for that step (a resend).
   */
  void received(long step, byte[] frame) throws IOException;

  /** Commits the peer's state: an outgoing model, or its delivery ({@link RingCheckpoint#asDelivered()}). */
  void commit(RingCheckpoint state) throws IOException;

  /** Forgets the received model of {@code step}: trained on and committed, or dropped as a duplicate or fork. */
  void consumed(long step) throws IOException;

  /** Keeps nothing (a simulation, where every peer lives in one process). */
  RingJournal NONE = new RingJournal() {
    @Override
    public void received(long step, byte[] frame) {}

    @Override
    public void commit(RingCheckpoint state) {}

    @Override
    public void consumed(long step) {}
  };
}
