package io.hdfl.federation;

import io.hdfl.codec.Expectations;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.transport.Transport;
import java.util.function.Consumer;

/**
 * What one peer runs with: its id, the federation's settings, its own connection (and the frame
 * channel over it that chunks frames for brokers with small packet limits), signing key, noise source
 * and kernels, and where its round reports go.
 */
public record PeerContext(
    String id,
    FederationSettings settings,
    Transport transport,
    PeerKeys keys,
    NoiseSource noise,
    VectorKernels kernels,
    Consumer<RoundReport> reports,
    FrameChannel frames) {

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
