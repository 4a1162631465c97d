package io.hdfl.cli;

import io.hdfl.privacy.composition.LedgerExposure;
import io.hdfl.privacy.composition.ObserverGuarantee;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerReader;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.ReleaseAudit;
import io.hdfl.privacy.ledger.Verification;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hdfl privacy report RUN_DIR}: headline and composed guarantees of a real run, from its verified ledger. */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "The guarantees a run's records keep: the headline per-release epsilon and, per observer, "
        + "the composed epsilon across everything it sees, from the run's verified ledger.")
final class PrivacyReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "RUN_DIR", description = "A run folder (or its ledger.jsonl).")
  Path run;

  @Option(names = "--keys", paramLabel = "DIR", description = "Public keys (default: keys/ beside the ledger).")
  Path keys;

  @Option(names = "--retrain-epochs", paramLabel = "E",
      description = "Retraining passes per round the run used (record sensitivity; default: the run folder's "
          + "summary.md, else 1).")
  Integer retrainEpochs;

  @Option(names = "--wire-encrypted", description = "Hop payloads were end-to-end encrypted.")
  boolean wireEncrypted;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Option(names = "--releases", paramLabel = "FILE",
      description = "A star client's record of the updates it sent (releases.jsonl): those the ledger lacks (lost, or"
          + " sent after the last round was averaged) count for the aggregator and the wire reader (repeatable).")
  List<Path> releases = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Path ledger = Files.isDirectory(run) ? run.resolve("ledger.jsonl") : run;
    Path keyDir = keys != null ? keys : ledger.toAbsolutePath().getParent().resolve("keys");
    PrintWriter out = spec.commandLine().getOut();
    KeyDirectory keyDirectory = KeyDirectory.open(keyDir); // its keys, read once, serve the records too
    Verification v = new LedgerVerifier(keyDirectory).verify(ledger);
    if (!v.ok()) {
      out.println(v.summary() + " — no report on a ledger that does not verify");
      return UserErrorHandler.CHECK_FAILED;
    }
    List<LedgerEntry> entries = new ArrayList<>();
    try (LedgerReader r = LedgerReader.open(ledger)) {
      for (String line = r.next(); line != null; line = r.next()) {
        entries.add(LedgerCodec.parse(line));
      }
    }
    int ledgerEntries = entries.size();
    int lastRound = entries.stream().mapToInt(LedgerEntry::round).max().orElse(0);
    long unrecorded = 0;
    for (ReleaseAudit a : ReleaseAudit.checkAll(releases, ledger, keyDirectory)) {
      Path file = a.file();
      if (!a.ok()) {
        out.println(a.summary() + " — no report on a record that does not check");
        return UserErrorHandler.CHECK_FAILED;
      }
      for (LedgerEntry e : a.unrecorded()) {
        if (e.round() > lastRound) {
          out.println("releases " + file + ": an update of round " + e.round() + ", after the ledger's last round ("
              + lastRound + "): the run did not finish, and the report covers finished runs");
          return UserErrorHandler.CHECK_FAILED;
        }
        entries.add(e); // a release the aggregator and the wire saw, in no average
        unrecorded++;
      }
    }
    // the ledger does not record E: the run folder's summary does (a simulate run's); a smaller E than
    // the run's would understate every epsilon of a retraining observer
    Integer recorded = recordedEpochs(ledger.toAbsolutePath().getParent().resolve("summary.md"));
    int epochs = retrainEpochs != null ? retrainEpochs : recorded != null ? recorded : 1;
    if (retrainEpochs != null && recorded != null && !retrainEpochs.equals(recorded)) {
      spec.commandLine().getErr().printf("hdfl privacy report: WARNING: --retrain-epochs %d, but the run's summary.md "
          + "records %d retraining epochs per round%n", retrainEpochs, recorded);
    } else if (retrainEpochs == null && recorded == null) {
      spec.commandLine().getErr().println("hdfl privacy report: WARNING: the ledger does not record the retraining "
          + "epochs per round and no summary.md beside it does: 1 is assumed (give the run's with --retrain-epochs; a "
          + "device's is its config's 'epochs')");
    }
    if (v.lateNotYetNamed() > 0) {
      spec.commandLine().getErr().printf("hdfl privacy report: WARNING: the ledger ends before the aggregate that"
          + " names its last %d late update(s): a run still in progress, or a ledger cut off there (a hash chain"
          + " cannot show what was cut off its end)%n", v.lateNotYetNamed());
    }
    List<ObserverGuarantee> observers = LedgerExposure.observers(entries, epochs, wireEncrypted);
    LedgerEntry first = entries.get(0);
    double delta = LedgerExposure.reportDelta(entries);
    String calibration = first.schedule() == LedgerEntry.Schedule.NONE ? null
        : io.hdfl.privacy.composition.HeadlineCalibration.warning(first.epsilon(),
            LedgerExposure.calibrationDelta(entries));
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("ledger", ledger.toString());
      m.put("entries", ledgerEntries);
      m.put("schedule", first.schedule().name().toLowerCase(Locale.ROOT));
      m.put("topology", first.topology().name().toLowerCase(Locale.ROOT));
      m.put("epsilon", first.epsilon());
      m.put("delta0", first.delta0());
      m.put("dim", first.dim());
      m.put("delta", delta);
      m.put("seeded_entries", v.seededEntries());
      m.put("late_updates", v.lateUpdates());
      m.put("late_not_yet_named", v.lateNotYetNamed());
      m.put("unrecorded_releases", unrecorded);
      m.put("retrain_epochs", epochs);
      m.put("wire_encrypted", wireEncrypted);
      m.put("calibration_warning", calibration);
      m.put("observers", observers.stream().map(ObserverGuarantee::toJson).toList());
      JsonOutput.print(out, m);
      return 0;
    }
    out.printf(Locale.ROOT, "hdfl privacy report: %s%n", ledger);
    out.printf(Locale.ROOT, "  %s%n", v.summary());
    out.printf(Locale.ROOT, "  headline: every released model carries the noise the %s schedule requires "
        + "(Gaussian mechanism, sensitivity sqrt(D), epsilon = %s per release, D = %d)%n",
        first.schedule().name().toLowerCase(Locale.ROOT), first.epsilon(), first.dim());
    if (calibration != null) {
      out.println("  " + calibration);
    }
    if (v.seededEntries() > 0) {
      out.printf("  WARNING: %d entries used seeded noise, which is reproducible and NOT for deployment%n",
          v.seededEntries());
    }
    if (unrecorded > 0) {
      out.printf("  %d client update(s) from --releases records that the ledger lacks are counted as releases the "
          + "aggregator and the wire saw%n", unrecorded);
    }
    out.printf(Locale.ROOT, "  per observer (RDP composition at delta = %.3g, %d retraining pass(es) per round, wire %s):%n",
        delta, epochs, wireEncrypted ? "end-to-end encrypted" : "NOT encrypted");
    for (ObserverGuarantee o : observers) {
      out.println("  - " + o.sentence());
    }
    return 0;
  }

  /** The retraining epochs per round a run folder's summary.md records (hdfl simulate writes it), or null. */
  static Integer recordedEpochs(Path summary) throws java.io.IOException {
    if (!Files.isRegularFile(summary) || Files.size(summary) > 1 << 20) {
      return null;
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\| retraining epochs per round \\| (\\d{1,9}) \\|$")
        .matcher(Files.readString(summary));
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }
}
