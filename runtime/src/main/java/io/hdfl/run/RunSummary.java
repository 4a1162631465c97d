package io.hdfl.run;

import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.Simulation;
import io.hdfl.federation.Topology;
import io.hdfl.hd.Evaluation;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.composition.ObserverGuarantee;
import io.hdfl.privacy.composition.ScheduleExposure;
import io.hdfl.privacy.schedule.BlackBoxSchedule;
import io.hdfl.privacy.schedule.FedHdPrivacySchedule;
import io.hdfl.privacy.schedule.NoPrivacySchedule;
import io.hdfl.privacy.schedule.NoiseSchedule;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import java.util.List;
import java.util.Locale;

/** The {@code summary.md} of a run: configuration, results per round, privacy (headline and honest), energy. */
final class RunSummary {
  private RunSummary() {}

  static String markdown(RunPlan plan, List<RoundRow> rows, Evaluation fin, Simulation.Result result,
      String energyReason, String energyNote) {
    FederationSettings s = plan.settings();
    StringBuilder b = new StringBuilder();
    b.append("# hdfl run: ").append(s.topology().id()).append(", ").append(s.privacy().id()).append("\n\n");
    b.append("| setting | value |\n|---|---|\n");
    row(b, "federation", s.federation());
    row(b, "topology", s.topology().id() + (s.topology() == Topology.RING ? " (PrivateDFL)" : " (FedHDPrivacy)"));
    row(b, "peers", String.valueOf(plan.peers()));
    row(b, "rounds", String.valueOf(s.rounds()));
    if (s.topology() == Topology.STAR) {
      row(b, "samples per client per round (L)", String.valueOf(s.perRound()));
    }
    row(b, "data", plan.source() != null
        ? plan.source() + ": one machine per peer, 90 signals at 500 Hz in windows of 10 (900 features), 3 classes; "
            + "test set: the first windows of every machine"
            + (plan.settings().topology().id().equals("star") ? "; clients learn from live windows each round" : "")
        : plan.train() + " → " + plan.test() + " (" + plan.split().name().toLowerCase(Locale.ROOT) + " split)");
    row(b, "encoder", s.encoder().kind().id() + ", D=" + s.encoder().dim() + ", basis seed " + s.encoder().basisSeed());
    row(b, "cached encodings", plan.encodings() == io.hdfl.hd.EncodingPrecision.INT8
        ? "int8 codes (each component within 1/254 of its float value; models and noise in float32)" : "float32");
    row(b, "retraining epochs per round", String.valueOf(s.retrainEpochs()));
    row(b, "privacy", privacyLine(s));
    row(b, "noise source", plan.noise().equals("seeded")
        ? "seeded — **NOT FOR DEPLOYMENT** (reproducible simulation noise)" : "secure (discrete Gaussian, CSPRNG)");
    row(b, "transport", plan.transport() + (plan.brokerUrl() != null ? " " + plan.brokerUrl() : ""));
    row(b, "energy", energyReason);
    b.append("\n## Result\n\n");
    b.append(String.format(Locale.ROOT, "Final test accuracy **%.2f %%**, macro-F1 %.4f, wall %.2f s, %d ledger entries.%n%n",
        100 * fin.accuracy(), fin.macroF1(), result.wallSeconds(), result.ledger().size()));
    b.append("| round | accuracy | macro-F1 | wall s | CPU s | energy J | bytes sent | variance present | added |\n");
    b.append("|---|---|---|---|---|---|---|---|---|\n");
    for (RoundRow r : rows) {
      b.append(String.format(Locale.ROOT, "| %d | %.4f | %.4f | %.3f | %.3f | %.3g | %d | %.6g | %.6g |%n", r.round(),
          r.accuracy(), r.macroF1(), r.wallSeconds(), r.cpuSeconds(), r.energyJoules(), r.bytesSent(),
          r.variancePresent(), r.varianceAdded()));
    }
    if (!rows.isEmpty()) {
      b.append("\nEnergy figures: ").append(rows.get(0).energySource()).append(". ").append(energyNote).append('\n');
    }
    b.append("\n## Privacy\n\n");
    if (s.privacy().id().equals("none")) {
      b.append("No privacy: no noise was added; every observer can learn about every record.\n");
    } else {
      NoiseSchedule schedule = schedule(s, plan.peers(), rows.isEmpty() ? 0 : perPeerSamples(result, plan));
      b.append("Headline: each released model carries the noise the ").append(s.privacy().id())
          .append(" schedule requires for the samples it absorbed (Gaussian mechanism, sensitivity √D, ε = ")
          .append(s.params().epsilon()).append(" per release).\n\n");
      String calibration = io.hdfl.privacy.composition.HeadlineCalibration.warning(s.params().epsilon(),
          ScheduleExposure.calibrationDelta(schedule));
      if (calibration != null) {
        b.append("**").append(calibration).append(".**\n\n");
      }
      b.append(s.encryption() != null
          ? "Hops were end-to-end encrypted (" + s.encryption().configName() + "): the broker and other subscribers see "
              + "no model in flight.\n\n"
          : "Hops were NOT encrypted (`--encryption none`): the broker and any subscriber see every model in flight.\n\n");
      b.append("What one record keeps against each observer across everything it sees (RDP composition; see the "
          + "README's Privacy section for the method and assumptions):\n\n");
      for (ObserverGuarantee o : ScheduleExposure.observers(schedule, s.retrainEpochs(), s.encryption() != null,
          plan.noise().equals("secure"))) {
        b.append("- ").append(o.sentence()).append('\n');
      }
    }
    RunFolder folder = new RunFolder(plan.out());
    b.append("\n## Files\n\n`rounds.jsonl` (one object per round), `ledger.jsonl` (signed privacy ledger; check it with ")
        .append("`hdfl ledger verify ").append(folder.ledgerFile()).append("`), `keys/` (peers' public keys), ")
        .append("`final-model.hdfl` (the final model; `").append(plan.evalCommand()).append("` scores it as this run did")
        .append(plan.noise().equals("seeded") && !s.privacy().id().equals("none")
            ? "; its noise is seeded, so anyone who knows the seed can remove it" : "")
        .append("), `accuracy.png`, `noise.png`, `energy.png`.\n");
    return b.toString();
  }

  private static long perPeerSamples(Simulation.Result result, RunPlan plan) {
    return result.ledger().isEmpty() ? 1 : Math.max(1, result.ledger().get(0).entry().samplesNew());
  }

  private static NoiseSchedule schedule(FederationSettings s, int peers, long samples) {
    PrivacyParameters p = s.params();
    return switch (s.privacy()) {
      case PRIVATEDFL -> PrivateDflSchedule.of(p, peers, samples, s.rounds());
      case BLACKBOX -> BlackBoxSchedule.of(p, peers, samples, s.rounds());
      case FEDHDP -> FedHdPrivacySchedule.of(p, peers, s.perRound(), s.rounds());
      case NONE -> NoPrivacySchedule.of(p, peers, samples, s.rounds());
    };
  }

  private static String privacyLine(FederationSettings s) {
    PrivacyParameters p = s.params();
    return switch (s.privacy()) {
      case NONE -> "none";
      case FEDHDP -> String.format(Locale.ROOT, "fedhdp, ε=%s, δ = 1/samples", p.epsilon());
      default -> String.format(Locale.ROOT, "%s, ε=%s, δ0=%s", s.privacy().id(), p.epsilon(), p.delta0());
    };
  }

  private static void row(StringBuilder b, String k, String v) {
    b.append("| ").append(k).append(" | ").append(v.replace("|", "\\|")).append(" |\n");
  }
}
