package io.hdfl.federation;

import io.hdfl.security.Roster;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.security.BroadcastSignature;
import io.hdfl.security.HopCipher;
import io.hdfl.security.SealException;

import io.hdfl.codec.Expectations;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.function.Consumer;

/**
 * What one peer runs with: its id, the federation's settings, its own connection (and the frame
 * channel over it that chunks frames for brokers with small packet limits), signing key, noise source
 * and kernels, where its round reports go, and the cipher of its hops (null: hops travel unencrypted).
 */
public record PeerContext(
    String id,
    FederationSettings settings,
    Transport transport,
    PeerKeys keys,
    NoiseSource noise,
    VectorKernels kernels,
    Consumer<RoundReport> reports,
    FrameChannel frames,
    HopCipher hops) {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");

  /** A context whose hops travel unencrypted. */
  public PeerContext(String id, FederationSettings settings, Transport transport, PeerKeys keys, NoiseSource noise,
      VectorKernels kernels, Consumer<RoundReport> reports, FrameChannel frames) {
    this(id, settings, transport, keys, noise, kernels, reports, frames, null);
  }

  /**
   * Publishes until the broker has it: while this peer's own connection is down (a broker restart,
   * a Wi-Fi drop) it waits for the transport to reconnect and tries again, so no model, update or
   * ledger line is lost to an outage. QoS 1 plus dedup by step make a repeat harmless.
   *
   * @param chunked through {@link #frames()} (model frames) rather than the plain transport
   * @throws InterruptedException if the peer is shut down meanwhile
   */
  void publishReliably(String topic, byte[] payload, boolean retained, boolean chunked) throws InterruptedException {
    untilSent(topic, () -> {
      if (chunked) {
        frames.publish(topic, payload, 1, retained);
      } else {
        transport.publish(topic, payload, 1, retained);
      }
    });
  }

  /**
   * Publishes {@code frame} for the broker to keep on {@code topic} ({@link FrameChannel#publishKept}:
   * in retained parts when it must be chunked), as {@link #publishReliably} does.
   */
  void publishKeptReliably(String topic, byte[] frame) throws InterruptedException {
    untilSent(topic, () -> frames.publishKept(topic, frame, 1));
  }

  /** A publish that may fail while the connection is down. */
  private interface Send {
    void run() throws TransportException;
  }

  /** Runs {@code send} until it succeeds, waiting for the transport to reconnect after each failure. */
  private void untilSent(String topic, Send send) throws InterruptedException {
    boolean logged = false;
    while (true) {
      if (Thread.interrupted()) { // shut down: a publish interrupted fails at once, and would be tried again for ever
        throw new InterruptedException("stopped while publishing to " + topic);
      }
      try {
        send.run();
        return;
      } catch (TransportException e) {
        if (!logged) {
          LOG.log(System.Logger.Level.WARNING, id + ": could not publish to " + topic + " (" + e.getMessage()
              + "); retrying once reconnected");
          logged = true;
        }
        awaitConnected();
      }
    }
  }

  /** Returns once this peer's transport is connected (at once if it is). */
  void awaitConnected() throws InterruptedException {
    while (!transport.isConnected()) {
      Thread.sleep(50);
    }
  }

  /** Whether frames addressed to one peer are end-to-end encrypted. */
  public boolean encrypted() {
    return hops != null;
  }

  /**
   * {@code frame} as it goes to {@code recipient}: sealed for it when hops are encrypted.
   *
   * @throws SealException if the recipient is not admitted by the roster
   */
  byte[] sealFor(String recipient, byte[] frame) throws SealException {
    return hops == null ? frame : hops.seal(recipient, frame);
  }

  /**
   * The frame inside a payload addressed to this peer, with its authenticated sender (null when hops
   * are not encrypted); null, after a logged warning naming {@code what}, if it is not accepted.
   */
  HopCipher.Opened open(byte[] payload, String what) {
    if (hops == null) {
      return new HopCipher.Opened(null, payload);
    }
    try {
      return hops.open(payload);
    } catch (SealException e) {
      // a replay is what an MQTT QoS 1 redelivery looks like too: worth a note, not a warning
      String line = id + ": rejected " + what + " (" + e.reason() + "): " + e.getMessage();
      if (e.reason() == SealException.Reason.REPLAYED) {
        frames.replayed(line);
      } else {
        frames.refused(line);
      }
      return null;
    }
  }

  /**
   * Tells why this peer refused a frame (a warning, at most {@link RejectionLog#BURST} a minute; the
   * rest are counted): the roles' one way to say it, so that a flood of forged frames cannot fill a
   * device's log.
   */
  public void refused(String line) {
    frames.refused(line);
  }

  /** The frame of a broadcast model (global, final): signed by this peer when hops are encrypted. */
  byte[] broadcastFrame(ModelEnvelope env) {
    return hops == null ? EnvelopeCodec.encode(env) : BroadcastSignature.signedFrame(env, keys);
  }

  /**
   * Whether a received broadcast model may be used: always when hops are not encrypted; otherwise only
   * if an admitted peer signed it (a warning naming {@code what} is logged if not).
   */
  public boolean acceptBroadcast(ModelEnvelope env, String what) {
    String problem = broadcastProblem(env);
    if (problem != null) {
      refused(id + ": rejected " + what + ": " + problem);
      return false;
    }
    return true;
  }

  /**
   * Why a received broadcast model may not be used (it is not signed by an admitted peer, where hops
   * are encrypted), or null if it may.
   */
  public String broadcastProblem(ModelEnvelope env) {
    if (hops == null) {
      return null;
    }
    try {
      BroadcastSignature.verify(env, hops.roster());
      return null;
    } catch (SealException e) {
      return e.getMessage() + " (" + e.reason() + ")";
    }
  }

  /**
   * Why the ledger {@code line} is not signed by {@code peer} under the roster's key, or null if it is
   * — or if hops are not encrypted, where no roster is at hand ({@code ledger verify} checks it later).
   */
  String ledgerSignatureProblem(String line, String peer) {
    if (hops == null) {
      return null;
    }
    try {
      io.hdfl.privacy.ledger.LedgerCodec.Split split = io.hdfl.privacy.ledger.LedgerCodec.split(line);
      if (!io.hdfl.privacy.ledger.PeerKeys.verify(hops.roster().signingKey(peer), split.signedBytes(),
          split.signature())) {
        return "its ledger entry is not signed by " + Roster.quoted(peer) + "'s key in the roster";
      }
      return null;
    } catch (SealException | io.hdfl.privacy.ledger.LedgerFormatException e) {
      return "its ledger entry's signature cannot be checked: " + e.getMessage();
    }
  }

  /** Whether an envelope's claimed sender is the one that sealed it (always, without encryption). */
  boolean senderMatches(HopCipher.Opened opened, ModelEnvelope env, String what) {
    if (opened.sender() == null || opened.sender().equals(env.sender())) {
      return true;
    }
    refused(id + ": rejected " + what + ": it claims sender " + Roster.quoted(env.sender())
        + " but was sealed by '" + opened.sender() + "'");
    return false;
  }

  public Topics topics() {
    return new Topics(settings.federation());
  }

  /** A ledger used only to sign this peer's entries under the federation's settings. */
  PrivacyLedger signer() {
    return PrivacyLedger.inMemory(settings.ledgerSettings());
  }

  /** What a received envelope must match. */
  public Expectations expectations() {
    return Expectations.builder()
        .federation(settings.federation())
        .encoder(settings.encoder().kind().id())
        .features(settings.encoder().features())
        .basisSeed(settings.encoder().basisSeed())
        .dim(settings.encoder().dim())
        .build();
  }
}
