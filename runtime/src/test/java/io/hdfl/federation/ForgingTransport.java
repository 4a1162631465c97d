package io.hdfl.federation;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A peer's connection that, before the first frame it sends on one topic at each step, sends there
 * the forgeries {@link Forge} makes of that frame (unencrypted frames of a federation without
 * {@code encryption}, as anyone on the broker could send them).
 */
final class ForgingTransport extends ForwardingTransport {
  /** The forgeries of a real envelope, sent in this order before it. */
  @FunctionalInterface
  interface Forge {
    List<ModelEnvelope> of(ModelEnvelope real) throws Exception;
  }

  private final String topic;
  private final Expectations expect;
  private final Forge forge;
  private final Set<Long> forgedSteps = new HashSet<>();
  private final List<String> sent = Collections.synchronizedList(new ArrayList<>());

  ForgingTransport(Transport inner, String topic, FederationSettings s, Forge forge) {
    super(inner);
    this.topic = topic;
    this.expect = Expectations.builder().federation(s.federation()).dim(s.encoder().dim()).build();
    this.forge = forge;
  }

  /**
   * Connections over {@code broker} in which {@code peerId}'s forges on {@code topic} (as {@link
   * Simulation} names the connections: the federation, then the peer id); that connection is added
   * to {@code made} once connected.
   */
  static PeerConnector forging(LoopbackBroker broker, FederationSettings s, String peerId, String topic, Forge forge,
      List<ForgingTransport> made) {
    return id -> {
      Transport t = broker.connect(id);
      if (!id.equals(s.federation() + "-" + peerId)) {
        return t;
      }
      ForgingTransport f = new ForgingTransport(t, topic, s, forge);
      made.add(f);
      return f;
    };
  }

  /** What was forged: "step N: forgery i" per forgery sent. */
  List<String> sent() {
    return List.copyOf(sent);
  }

  @Override
  public void publish(String t, byte[] payload, int qos, boolean retained) throws TransportException {
    if (t.equals(topic)) {
      try {
        if (payload.length == 0) { // an empty retained message clears the topic: nothing to forge
          inner.publish(t, payload, qos, retained);
          return;
        }
        ModelEnvelope real = EnvelopeCodec.decode(payload, expect);
        boolean first;
        synchronized (forgedSteps) {
          first = forgedSteps.add(real.step());
        }
        if (first) {
          List<ModelEnvelope> forgeries = forge.of(real);
          for (int i = 0; i < forgeries.size(); i++) {
            inner.publish(topic, EnvelopeCodec.encode(forgeries.get(i)), qos, retained);
            sent.add("step " + real.step() + ": forgery " + (i + 1));
          }
        }
      } catch (TransportException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("could not forge: " + e, e);
      }
    }
    inner.publish(t, payload, qos, retained);
  }

  /** {@code u} with another class count, prototypes, noise state and sample count. */
  static ModelEnvelope with(ModelEnvelope u, int classes, float[] prototypes, double present, long samples) {
    return new ModelEnvelope(u.kind(), u.federation(), u.sender(), u.round(), u.step(), u.encoder(), u.features(),
        u.basisSeed(), u.dim(), classes, present, samples, u.ledgerLines(), null, prototypes);
  }

  /** {@code u} carrying other ledger lines. */
  static ModelEnvelope withLines(ModelEnvelope u, java.util.List<String> lines) {
    return new ModelEnvelope(u.kind(), u.federation(), u.sender(), u.round(), u.step(), u.encoder(), u.features(),
        u.basisSeed(), u.dim(), u.classes(), u.presentVariance(), u.samplesAbsorbed(), lines, null, u.prototypes());
  }

  /** {@code u} at another round and step. */
  static ModelEnvelope at(ModelEnvelope u, int round, long step) {
    return new ModelEnvelope(u.kind(), u.federation(), u.sender(), round, step, u.encoder(), u.features(),
        u.basisSeed(), u.dim(), u.classes(), u.presentVariance(), u.samplesAbsorbed(), u.ledgerLines(), null,
        u.prototypes());
  }

  /** {@code u} with one class fewer (its last class row cut off). */
  static ModelEnvelope oneClassFewer(ModelEnvelope u) {
    return with(u, u.classes() - 1, java.util.Arrays.copyOf(u.prototypes(), (u.classes() - 1) * u.dim()),
        u.presentVariance(), u.samplesAbsorbed());
  }
}
