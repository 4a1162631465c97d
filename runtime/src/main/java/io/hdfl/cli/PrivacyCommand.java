package io.hdfl.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.hdfl.io.AtomicFile;
import io.hdfl.plot.PlotSupport;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.composition.ObserverGuarantee;
import io.hdfl.privacy.composition.ScheduleExposure;
import io.hdfl.privacy.schedule.BlackBoxSchedule;
import io.hdfl.privacy.schedule.FedHdPrivacySchedule;
import io.hdfl.privacy.schedule.NoPrivacySchedule;
import io.hdfl.privacy.schedule.NoiseSchedule;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.privacy.schedule.ScheduleRow;
import io.hdfl.privacy.schedule.ScheduleTotals;
import io.hdfl.privacy.schedule.plot.SchedulePlot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code hdfl privacy schedule}. */
@Command(name = "privacy", mixinStandardHelpOptions = true, description = "Differential-privacy noise schedules.",
    subcommands = {PrivacyCommand.Schedule.class, PrivacyReportCommand.class})
final class PrivacyCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "schedule", mixinStandardHelpOptions = true,
      description = "Lay out the noise variance a run requires, adds and holds, step by step (ring) or round by "
          + "round (star), next to the black-box baseline that re-adds the full requirement every time.")
  static final class Schedule implements Callable<Integer> {
    static final double DEFAULT_DELTA0 = 1e-3;
    /** Rows the human table shows in full; longer schedules show the first and last half of this. */
    static final int TABLE_ROWS = 60;
    static final int PLOT_WIDTH = 900;
    static final int PLOT_HEIGHT = 500;

    @Spec CommandSpec spec;

    @Option(names = "--mode", required = true, paramLabel = "privatedfl|fedhdp|blackbox|none",
        converter = ModeConverter.class, description = "Schedule to lay out.")
    ScheduleMode mode;

    @Option(names = "--dim", required = true, paramLabel = "D", description = "Hypervector dimension D.")
    int dim;

    @Option(names = "--epsilon", required = true, paramLabel = "E", description = "Privacy budget ε per release.")
    double epsilon;

    @Option(names = "--delta0", paramLabel = "d",
        description = "δ0 in δ = δ0/samples, in (0, 1) (default: " + DEFAULT_DELTA0 + "; not used by fedhdp, "
            + "where δ = 1/samples).")
    Double delta0;

    @Option(names = "--peers", required = true, paramLabel = "K", description = "Peers of the ring or clients of the star.")
    int peers;

    @Option(names = "--samples", paramLabel = "N", description = "Samples per peer per step (ring modes).")
    Long samples;

    @Option(names = "--per-round", paramLabel = "L", description = "Samples per client per round (fedhdp).")
    Long perRound;

    @Option(names = "--rounds", required = true, paramLabel = "R", description = "Rounds.")
    int rounds;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--csv", description = "Print CSV: a header and one line per row.")
    boolean csv;

    @Option(names = "--plot", paramLabel = "FILE.png",
        description = "Also draw required vs added vs black-box variance (log scale) to this PNG file.")
    Path plot;

    @Option(names = "--retrain-epochs", defaultValue = "1", paramLabel = "E",
        description = "Perceptron passes each peer makes over its data per round, for the composition report's "
            + "record sensitivity (default: ${DEFAULT-VALUE}).")
    int retrainEpochs;

    @Option(names = "--wire-encrypted",
        description = "Hop payloads are end-to-end encrypted, so a wire reader sees nothing (default: not).")
    boolean wireEncrypted;

    @Option(names = "--noise", defaultValue = "secure", paramLabel = "secure|seeded",
        description = "The noise source planned for: secure (a device's; its grid's snapping counts in the "
            + "record's sensitivity) or seeded (a simulation's continuous noise). Default: ${DEFAULT-VALUE}.")
    String noise;

    @Override
    public Integer call() throws IOException {
      NoiseSchedule schedule = schedule();
      if (retrainEpochs < 0) {
        throw new IllegalArgumentException("--retrain-epochs must be >= 0, got " + retrainEpochs);
      }
      if (!noise.equals("secure") && !noise.equals("seeded")) {
        throw new IllegalArgumentException("--noise must be secure or seeded, got '" + noise + "'");
      }
      boolean secure = noise.equals("secure");
      List<ObserverGuarantee> observers = json || csv ? null : ScheduleExposure.observers(schedule, retrainEpochs, wireEncrypted, secure);
      if (json && csv) {
        throw new IllegalArgumentException("--json and --csv cannot be combined");
      }
      if (plot != null) {
        if (!plot.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
          throw new IllegalArgumentException("--plot writes PNG: the file name must end in .png, got " + plot);
        }
        if (!PlotSupport.available()) {
          throw new IllegalArgumentException("--plot: " + PlotSupport.unavailableReason());
        }
        byte[] png = SchedulePlot.png(schedule, PLOT_WIDTH, PLOT_HEIGHT);
        AtomicFile.write(plot, out -> out.write(png));
      }
      PrintWriter out = spec.commandLine().getOut();
      ScheduleTotals totals = ScheduleTotals.of(schedule);
      if (json) {
        printJson(out, schedule, totals, ScheduleExposure.observers(schedule, retrainEpochs, wireEncrypted, secure),
            retrainEpochs, wireEncrypted, secure);
      } else if (csv) {
        printCsv(out, schedule);
      } else {
        printTable(out, schedule, totals);
        printComposition(out, schedule, observers, retrainEpochs, wireEncrypted, secure);
        if (plot != null) {
          out.printf(Locale.ROOT, "plot written to %s%n", plot);
        }
      }
      return 0;
    }

    /** Checks the mode's flags and builds its schedule (the schedule checks the values). */
    NoiseSchedule schedule() {
      if (dim < 1) {
        throw new IllegalArgumentException("--dim must be >= 1, got " + dim);
      }
      if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
        throw new IllegalArgumentException("--epsilon must be a finite number > 0, got " + epsilon);
      }
      if (mode == ScheduleMode.FEDHDP) {
        if (samples != null) {
          throw new IllegalArgumentException("--samples is for the ring modes; --mode fedhdp takes --per-round L");
        }
        if (perRound == null) {
          throw new IllegalArgumentException("--mode fedhdp needs --per-round L (samples per client per round)");
        }
        if (delta0 != null) {
          throw new IllegalArgumentException("--delta0 is not used by --mode fedhdp (δ = 1/samples)");
        }
        return FedHdPrivacySchedule.of(PrivacyParameters.perSampleDelta(dim, epsilon), peers, perRound, rounds);
      }
      if (perRound != null) {
        throw new IllegalArgumentException("--per-round is for --mode fedhdp; --mode " + mode.id() + " takes --samples N");
      }
      if (samples == null) {
        throw new IllegalArgumentException("--mode " + mode.id() + " needs --samples N (samples per peer per step)");
      }
      double d0 = delta0 == null ? DEFAULT_DELTA0 : delta0;
      if (!(d0 > 0 && d0 < 1)) {
        throw new IllegalArgumentException("--delta0 must be in (0, 1), got " + d0);
      }
      PrivacyParameters p = PrivacyParameters.withDelta0(dim, epsilon, d0);
      return switch (mode) {
        case PRIVATEDFL -> PrivateDflSchedule.of(p, peers, samples, rounds);
        case BLACKBOX -> BlackBoxSchedule.of(p, peers, samples, rounds);
        default -> NoPrivacySchedule.of(p, peers, samples, rounds); // none: δ0 is not used
      };
    }

    /** The WARNING line when the classical calibration misses the headline ε (null: it holds). */
    private static String calibrationWarning(NoiseSchedule s) {
      return s.mode() == ScheduleMode.NONE ? null
          : io.hdfl.privacy.composition.HeadlineCalibration.warning(s.parameters().epsilon(),
              ScheduleExposure.calibrationDelta(s));
    }

    private static boolean star(NoiseSchedule s) {
      return !s.mode().ring();
    }

    private static void printComposition(PrintWriter out, NoiseSchedule s, List<ObserverGuarantee> observers,
        int epochs, boolean encrypted, boolean secure) {
      out.printf(Locale.ROOT, "%nhonest composition: what one record keeps against each observer across everything it sees%n");
      out.printf(Locale.ROOT, "  (Gaussian releases composed by RDP, delta = %.3g, record sensitivity sqrt(D) bundled + %d "
          + "retraining pass(es) x sqrt(2D) per round%s, wire %s; see README \"Privacy\")%n",
          ScheduleExposure.reportDelta(s), epochs, secure ? ", plus sqrt(D) x the grid the secure noise snaps the model"
              + " to at each step after the record enters" : ", seeded continuous noise",
          encrypted ? "end-to-end encrypted" : "NOT encrypted");
      for (ObserverGuarantee o : observers) {
        out.println("  - " + o.sentence());
      }
      boolean weaker = observers.stream().anyMatch(ObserverGuarantee::weakerThanHeadline);
      String calibration = calibrationWarning(s);
      if (calibration != null) {
        out.println("  " + calibration + ".");
      }
      out.println(calibration != null ? "  The observers marked WEAKER get less than the headline epsilon." : weaker
          ? "  The headline epsilon holds per released model against an observer who sees that model alone; "
              + "the observers marked WEAKER get less."
          : "  Every observer listed keeps at least the headline guarantee.");
    }

    private static void printJson(PrintWriter out, NoiseSchedule s, ScheduleTotals t, List<ObserverGuarantee> observers,
        int epochs, boolean encrypted, boolean secure) throws IOException {
      PrivacyParameters p = s.parameters();
      try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.writeStartObject();
        g.writeStringField("mode", s.mode().id());
        g.writeStringField("topology", star(s) ? "star" : "ring");
        g.writeNumberField("dim", p.dim());
        g.writeNumberField("epsilon", p.epsilon());
        g.writeFieldName("delta0");
        if (s.mode() == ScheduleMode.NONE) {
          g.writeNull();
        } else {
          g.writeNumber(p.delta0());
        }
        g.writeNumberField("c", p.c());
        g.writeNumberField("peers", s.peers());
        g.writeNumberField(star(s) ? "per_round" : "samples", s.samplesPerUpdate());
        g.writeNumberField("rounds", s.rounds());
        g.writeArrayFieldStart("steps");
        for (ScheduleRow r : s) {
          g.writeStartObject();
          g.writeNumberField("step", r.step());
          g.writeNumberField("round", r.round());
          g.writeNumberField("peer", r.peer());
          g.writeNumberField("samples", r.samples());
          number(g, "required", r.required());
          number(g, "present", r.present());
          number(g, "added", r.added());
          number(g, "blackbox", r.blackbox());
          if (r.hasServer()) {
            number(g, "gamma", r.gamma());
            number(g, "server_added", r.serverAdded());
          }
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("totals");
        g.writeNumberField("rows", t.rows());
        g.writeNumberField("samples", t.samples());
        number(g, "required", t.required());
        number(g, "present", t.present());
        number(g, "added", t.added());
        number(g, "blackbox", t.blackbox());
        number(g, "blackbox_over_added", t.blackboxOverAdded());
        if (star(s)) {
          number(g, "server_added", t.serverAdded());
          g.writeNumberField("server_added_rounds", t.serverAddedRounds());
          number(g, "min_gamma", t.minGamma());
        }
        g.writeEndObject();
        g.writeObjectFieldStart("composition");
        number(g, "delta", ScheduleExposure.reportDelta(s));
        g.writeNumberField("retrain_epochs", epochs);
        g.writeBooleanField("wire_encrypted", encrypted);
        g.writeStringField("noise", secure ? "secure" : "seeded");
        g.writeStringField("calibration_warning", calibrationWarning(s));
        g.writeArrayFieldStart("observers");
        for (ObserverGuarantee o : observers) {
          g.writeStartObject();
          g.writeStringField("observer", o.observer());
          g.writeStringField("sees", o.sees());
          g.writeNumberField("releases", o.releases().size());
          number(g, "epsilon_rdp", o.epsilonRdp());
          number(g, "epsilon_exact", o.epsilonExact());
          number(g, "mu", o.mu());
          g.writeBooleanField("weaker_than_headline", o.weakerThanHeadline());
          g.writeStringField("worst_case", o.worstCase());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
      }
      out.println();
    }

    /** NaN and infinities are not JSON: null, as {@link JsonOutput#number} does. */
    private static void number(JsonGenerator g, String name, double v) throws IOException {
      g.writeFieldName(name);
      if (Double.isFinite(v)) {
        g.writeNumber(v);
      } else {
        g.writeNull();
      }
    }

    private static void printCsv(PrintWriter out, NoiseSchedule s) {
      boolean star = star(s);
      out.println("step,round,peer,samples,required,present,added,blackbox" + (star ? ",gamma,server_added" : ""));
      StringBuilder line = new StringBuilder(160);
      for (ScheduleRow r : s) {
        line.setLength(0);
        line.append(r.step()).append(',').append(r.round()).append(',').append(r.peer()).append(',')
            .append(r.samples()).append(',').append(r.required()).append(',').append(r.present()).append(',')
            .append(r.added()).append(',').append(r.blackbox());
        if (star) {
          line.append(',').append(r.gamma()).append(',').append(r.serverAdded());
        }
        out.println(line);
      }
    }

    private static void printTable(PrintWriter out, NoiseSchedule s, ScheduleTotals t) {
      boolean star = star(s);
      out.printf(Locale.ROOT, "hdfl privacy schedule: %s%n", s.description());
      String header = star
          ? String.format(Locale.ROOT, "%6s %12s %13s %13s %13s %8s %13s %13s", "round", "samples", "client added",
              "server req.", "server pres.", "gamma", "server added", "black-box")
          : String.format(Locale.ROOT, "%8s %6s %5s %14s %13s %13s %13s %13s", "step", "round", "peer", "samples", "required",
              "present", "added", "black-box");
      out.println(header);
      int half = TABLE_ROWS / 2;
      List<ScheduleRow> head = new ArrayList<>();
      Deque<ScheduleRow> tail = new ArrayDeque<>();
      boolean truncate = s.rowCount() > TABLE_ROWS;
      for (ScheduleRow r : s) {
        if (!truncate || head.size() < half) {
          head.add(r);
        } else {
          tail.addLast(r);
          if (tail.size() > half) {
            tail.removeFirst();
          }
        }
      }
      head.forEach(r -> out.println(row(r, star)));
      if (truncate) {
        out.printf(Locale.ROOT, "%8s ... %d rows not shown (--csv or --json print all) ...%n", "", s.rowCount() - head.size() - tail.size());
        tail.forEach(r -> out.println(row(r, star)));
      }
      if (s.mode() == ScheduleMode.NONE) {
        out.printf(Locale.ROOT, "totals: %d %s, no noise%n", t.rows(), star ? "rounds" : "steps");
      } else if (star) {
        out.printf(Locale.ROOT, "totals: each client added %s over %d rounds; a black-box client would add %s (%.1fx)%n",
            g(t.added()), t.rows(), g(t.blackbox()), t.blackboxOverAdded());
        out.printf(Locale.ROOT, "        server: added noise in %d of %d rounds (%s), min gamma %.4f%s%n", t.serverAddedRounds(), t.rows(),
            g(t.serverAdded()), t.minGamma(), t.minGamma() > 1 ? " > 1" : "");
      } else {
        out.printf(Locale.ROOT, "totals: added %s over %d steps (required at the end %s); black-box would add %s (%.1fx)%n",
            g(t.added()), t.rows(), g(t.required()), g(t.blackbox()), t.blackboxOverAdded());
      }
    }

    private static String row(ScheduleRow r, boolean star) {
      if (star) {
        return String.format(Locale.ROOT, "%6d %12d %13s %13s %13s %8.4f %13s %13s", r.round(), r.samples(), g(r.added()),
            g(r.required()), g(r.present()), r.gamma(), g(r.serverAdded()), g(r.blackbox()));
      }
      return String.format(Locale.ROOT, "%8d %6d %5d %14d %13s %13s %13s %13s", r.step(), r.round(), r.peer(), r.samples(),
          g(r.required()), g(r.present()), g(r.added()), g(r.blackbox()));
    }

    private static String g(double v) {
      return v == 0 ? "0" : String.format(Locale.ROOT, "%.6g", v);
    }
  }

  static final class ModeConverter implements ITypeConverter<ScheduleMode> {
    @Override
    public ScheduleMode convert(String value) {
      try {
        return ScheduleMode.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
