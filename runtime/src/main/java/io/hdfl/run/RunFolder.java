package io.hdfl.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.ModelFile;
import io.hdfl.io.AtomicFile;
import io.hdfl.plot.LinePlot;
import io.hdfl.plot.PlotSupport;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.PeerKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's folder: {@code rounds.jsonl}, {@code ledger.jsonl}, {@code keys/<peer>.pub} (so that
 * {@code hdfl ledger verify RUN/ledger.jsonl} needs no other argument), the final model as {@code
 * final-model.hdfl} (a {@link ModelFile}, which {@code hdfl eval} reads), {@code summary.md}, and the
 * plots {@code accuracy.png}, {@code noise.png}, {@code energy.png} (left out, with a note in the
 * summary, on a runtime without {@code java.desktop}: {@link PlotSupport}). Every file is written atomically.
 */
public final class RunFolder {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WIDTH = 900;
  private static final int HEIGHT = 500;

  private final Path dir;

  public RunFolder(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  public Path ledgerFile() {
    return dir.resolve("ledger.jsonl");
  }

  public Path modelFile() {
    return dir.resolve(ModelFile.FINAL_MODEL_NAME);
  }

  /**
   * Fails, before a run starts, if this folder could not be written at its end: it exists and is not
   * a directory, or the nearest folder above it that exists is a file or is not writable.
   *
   * @throws IllegalArgumentException naming the folder and the reason
   */
  public void checkWritable() {
    Path existing = dir.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return; // nothing above it exists: creating it says why
    }
    String why = !Files.isDirectory(existing) ? existing + " is not a directory"
        : !Files.isWritable(existing) ? existing + " is not writable" : null;
    if (why != null) {
      throw new IllegalArgumentException("cannot write the run folder " + dir + ": " + why);
    }
  }

  /** Writes everything; {@code summary} is the Markdown text of summary.md. */
  public void write(List<RoundRow> rounds, List<LedgerLine> ledger, Map<String, PeerKeys> keys, HdModel finalModel,
      String summary, String title) throws IOException {
    Files.createDirectories(dir);
    ModelFile.write(finalModel, modelFile());
    AtomicFile.write(dir.resolve("rounds.jsonl"), out -> {
      for (RoundRow r : rounds) {
        out.write(JSON.writeValueAsBytes(r.toJson()));
        out.write('\n');
      }
    });
    AtomicFile.write(ledgerFile(), out -> {
      for (LedgerLine l : ledger) {
        out.write(l.text().getBytes(StandardCharsets.US_ASCII));
        out.write('\n');
      }
    });
    Path keysDir = dir.resolve("keys");
    for (PeerKeys k : keys.values()) {
      k.publish(keysDir);
    }
    boolean plots = PlotSupport.available();
    String text = plots ? summary : summary + "\nPlots not drawn: " + PlotSupport.unavailableReason() + ".\n";
    AtomicFile.write(dir.resolve("summary.md"), out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    if (plots) {
      writePlots(rounds, ledger, title);
    }
  }

  private void writePlots(List<RoundRow> rounds, List<LedgerLine> ledger, String title) throws IOException {
    double[] x = new double[rounds.size()];
    double[] acc = new double[rounds.size()];
    double[] energy = new double[rounds.size()];
    for (int i = 0; i < rounds.size(); i++) {
      x[i] = rounds.get(i).round();
      acc[i] = rounds.get(i).accuracy();
      energy[i] = rounds.get(i).energyJoules();
    }
    byte[] accuracy = LinePlot.of("Test accuracy per round — " + title, "round", "accuracy", false, WIDTH, HEIGHT)
        .yRange(0, 1).yPattern("0.00").line("accuracy", x, acc, LinePlot.BLUE, true, false).png();
    AtomicFile.write(dir.resolve("accuracy.png"), out -> out.write(accuracy));

    int n = ledger.size();
    double[] step = new double[n];
    double[] required = new double[n];
    double[] added = new double[n];
    double[] blackbox = new double[n];
    double cumulativeBlackbox = 0;
    for (int i = 0; i < n; i++) {
      var e = ledger.get(i).entry();
      step[i] = i + 1;
      required[i] = e.requiredVariance();
      added[i] = e.addedVariance();
      cumulativeBlackbox += e.requiredVariance(); // a blind peer re-adds the full requirement every time
      blackbox[i] = cumulativeBlackbox;
    }
    boolean log = false;
    for (double v : required) {
      log |= v > 0;
    }
    LinePlot noise = LinePlot.of("Noise per ledger entry — " + title, "ledger entry",
        log ? "noise variance per component (log scale)" : "noise variance per component", log, WIDTH, HEIGHT);
    if (!log) {
      noise.yRange(0, 1);
    }
    boolean markers = n <= 60;
    byte[] noisePng = noise.line("required", step, required, LinePlot.BLUE, markers, false)
        .line("added", step, added, LinePlot.RED, markers, false)
        .line("black-box cumulative (re-adding the requirement)", step, blackbox, LinePlot.GREY, markers, true)
        .png();
    AtomicFile.write(dir.resolve("noise.png"), out -> out.write(noisePng));

    String source = rounds.isEmpty() ? "" : rounds.get(0).energySource();
    byte[] energyPng = LinePlot.of("Energy per round (" + source + ") — " + title, "round", "joules (all peers)",
        false, WIDTH, HEIGHT).yPattern("#,##0.##").line("energy", x, energy, LinePlot.ORANGE, true, false).png();
    AtomicFile.write(dir.resolve("energy.png"), out -> out.write(energyPng));
  }
}
