package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Locale;

/** K peers, N samples per peer per step, R rounds: steps t = K(r−1)+k, validated. */
record RingShape(int peers, long samplesPerPeer, int rounds) {
  /** Sample counts stay exact in a double (the requirement takes ln of 1.25·samples). */
  static final long MAX_SAMPLES = 1L << 53;

  RingShape {
    if (peers < 1) {
      throw new IllegalArgumentException("--peers (K) must be >= 1, got " + peers);
    }
    if (samplesPerPeer < 1) {
      throw new IllegalArgumentException("--samples (N, samples per peer) must be >= 1, got " + samplesPerPeer);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds (R) must be >= 1, got " + rounds);
    }
    long steps = (long) peers * rounds;
    if (steps > NoiseSchedule.MAX_ROWS) {
      throw new IllegalArgumentException("--peers x --rounds = " + steps + " steps, more than the "
          + NoiseSchedule.MAX_ROWS + " a schedule can lay out");
    }
    if (samplesPerPeer > MAX_SAMPLES / steps) {
      throw new IllegalArgumentException("--samples x --peers x --rounds is more than 2^53 samples");
    }
  }

  /** Ring schedules other than none need a user-chosen δ0 strictly inside (0, 1). */
  static void requireDelta0Below1(PrivacyParameters params, ScheduleMode mode) {
    if (!(params.delta0() < 1)) {
      throw new IllegalArgumentException("--delta0 must be in (0, 1) for " + mode.id() + ", got " + params.delta0());
    }
  }

  long steps() {
    return (long) peers * rounds;
  }

  int round(long step) {
    return (int) ((step - 1) / peers + 1);
  }

  int peer(long step) {
    return (int) ((step - 1) % peers + 1);
  }

  String describe(ScheduleMode mode, PrivacyParameters p, boolean withDelta0) {
    return String.format("%s (ring): K=%d peers, N=%d samples per peer per step, R=%d rounds (%d steps); %s",
        mode.id(), peers, samplesPerPeer, rounds, steps(), parameters(p, withDelta0));
  }

  static String parameters(PrivacyParameters p, boolean withDelta0) {
    return "D=" + p.dim() + ", ε=" + p.epsilon() + (withDelta0 ? ", δ0=" + p.delta0() : ", δ=1/samples")
        + ", c=2D/ε²=" + compact(p.c());
  }

  /** 4000 rather than 4000.00; six significant digits otherwise. */
  static String compact(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.6g", v);
  }
}
