package io.hdfl.device;

import io.hdfl.federation.RoundReport;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A device's progress, one line per round report: what the round did, how long it took, the noise
 * it added against what was required, the bytes and the energy (with where that figure comes from).
 * Without it a device said nothing between its start and its final model, which for a star running
 * for days is nothing at all in its journal; the same reports go to the metrics topic as JSON.
 */
final class RoundProgress implements Consumer<RoundReport> {
  private final String role;
  private final int rounds;
  private final Consumer<String> log;

  /**
   * @param role the device's role ({@code ring}, {@code star-client} or {@code aggregator})
   * @param rounds the run's rounds
   * @param log where the lines go
   */
  RoundProgress(String role, int rounds, Consumer<String> log) {
    this.role = role;
    this.rounds = rounds;
    this.log = log;
  }

  @Override
  public void accept(RoundReport r) {
    log.accept(line(r));
  }

  /** The line for {@code r}. */
  String line(RoundReport r) {
    StringBuilder b = new StringBuilder();
    b.append("round ").append(r.round()).append('/').append(rounds);
    switch (role) {
      case "ring" -> b.append(" (step ").append(r.step()).append("): ")
          .append(r.samplesNew() > 0 ? "trained on " + r.samplesNew() + " new samples" : "retrained")
          .append(", passed on in ").append(seconds(r.wallSeconds()));
      case "star-client" -> b.append(": update of ").append(r.samplesNew()).append(" new samples sent in ")
          .append(seconds(r.wallSeconds()));
      default -> b.append(": averaged the clients' updates (").append(r.samplesNew())
          .append(" new samples) after ").append(seconds(r.wallSeconds()));
    }
    b.append(" (CPU ").append(seconds(r.cpuSeconds())).append("); noise variance required ")
        .append(variance(r.required())).append(", present ").append(variance(r.present())).append(" (")
        .append(r.added() > 0 ? variance(r.added()) : "none").append(" added here); sent ").append(bytes(r.bytesSent())).append(", received ").append(bytes(r.bytesReceived()))
        .append("; energy ");
    if (Double.isFinite(r.energyJoules())) {
      b.append(String.format(Locale.ROOT, "%.3g J", r.energyJoules())).append(' ').append(r.energySource());
    } else {
      b.append("not read (see the meter's warning)");
    }
    return b.toString();
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, "%.2f s", s);
  }

  private static String variance(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }

  /** Bytes in B, kB or MB (powers of 1000, as the README's figures). */
  static String bytes(long n) {
    if (n < 1000) {
      return n + " B";
    }
    if (n < 999_950) { // beyond, it would print as 1000.0 kB
      return String.format(Locale.ROOT, "%.1f kB", n / 1e3);
    }
    return String.format(Locale.ROOT, "%.2f MB", n / 1e6);
  }
}
