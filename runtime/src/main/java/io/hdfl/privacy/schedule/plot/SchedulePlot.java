package io.hdfl.privacy.schedule.plot;

import io.hdfl.plot.LinePlot;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.NoiseSchedule;
import io.hdfl.privacy.schedule.ScheduleRow;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Draws a {@link NoiseSchedule} as a PNG: variance required, added and what the black-box baseline
 * would add, per step (ring) or round (star), on a log scale. Rendering is headless; long schedules
 * are thinned to at most {@value #MAX_POINTS} points per line (the last row is always drawn).
 */
public final class SchedulePlot {
  /** Most points drawn per line. */
  public static final int MAX_POINTS = 2000;

  private SchedulePlot() {}

  /** The PNG bytes of the schedule's plot. */
  public static byte[] png(NoiseSchedule schedule, int width, int height) throws IOException {
    Objects.requireNonNull(schedule, "schedule");
    Columns cols = Columns.of(schedule);
    boolean star = !schedule.mode().ring();
    boolean log = cols.anyPositive();
    LinePlot plot = LinePlot.of(title(schedule), star ? "round r" : "step t = K(r-1)+k",
        log ? "noise variance per component (log scale)" : "noise variance per component", log, width, height);
    if (!log) {
      plot.yRange(0.0, 1.0);
    }
    boolean markers = cols.size <= 60;
    switch (schedule.mode()) {
      case PRIVATEDFL:
        plot.line("required = present, ξ(t)", cols.x, cols.required, LinePlot.BLUE, markers, false);
        plot.line("added at step t, Γ(t)", cols.x, cols.added, LinePlot.RED, markers, false);
        plot.line("black-box cumulative, Ξ(t)", cols.x, cols.blackbox, LinePlot.GREY, markers, true);
        break;
      case BLACKBOX:
        plot.line("required, ξ(t)", cols.x, cols.required, LinePlot.BLUE, markers, false);
        plot.line("added at step t (full requirement again)", cols.x, cols.added, LinePlot.RED, markers, false);
        plot.line("present = black-box cumulative, Ξ(t)", cols.x, cols.blackbox, LinePlot.GREY, markers, true);
        break;
      case FEDHDP:
        plot.line("client added, Γ_k", cols.x, cols.added, LinePlot.RED, markers, false);
        plot.line("server required, ξ_g", cols.x, cols.required, LinePlot.BLUE, markers, false);
        plot.line("server present, Ψ_g", cols.x, cols.present, LinePlot.GREEN, markers, false);
        plot.line("black-box client cumulative", cols.x, cols.blackbox, LinePlot.GREY, markers, true);
        if (cols.serverAddedAny) {
          plot.line("server added", cols.x, cols.serverAdded, LinePlot.ORANGE, true, false);
        }
        break;
      case NONE:
        plot.line("no noise: required = added = 0", cols.x, cols.required, LinePlot.BLUE, markers, false);
        break;
    }
    return plot.png();
  }

  /** See {@link LinePlot#fontFailure}. */
  static boolean fontFailure(Throwable e) {
    return LinePlot.fontFailure(e);
  }

  private static String title(NoiseSchedule s) {
    PrivacyParameters p = s.parameters();
    String who = s.mode().ring()
        ? String.format("K=%d peers, N=%d, R=%d", s.peers(), s.samplesPerUpdate(), s.rounds())
        : String.format("K=%d clients, L=%d per round, R=%d", s.peers(), s.samplesPerUpdate(), s.rounds());
    String privacy = switch (s.mode()) {
      case NONE -> "no privacy";
      case FEDHDP -> String.format("D=%d, ε=%s, δ=1/samples", p.dim(), p.epsilon());
      default -> String.format("D=%d, ε=%s, δ0=%s", p.dim(), p.epsilon(), p.delta0());
    };
    return "Noise schedule " + s.mode().id() + ": " + who + "; " + privacy;
  }

  /** The plotted rows, thinned to at most MAX_POINTS. */
  private static final class Columns {
    final double[] x;
    final double[] required;
    final double[] present;
    final double[] added;
    final double[] blackbox;
    final double[] serverAdded;
    final int size;
    final boolean serverAddedAny;

    private Columns(int capacity) {
      x = new double[capacity];
      required = new double[capacity];
      present = new double[capacity];
      added = new double[capacity];
      blackbox = new double[capacity];
      serverAdded = new double[capacity];
      size = 0;
      serverAddedAny = false;
    }

    private Columns(Columns c, int size, boolean serverAddedAny) {
      x = Arrays.copyOf(c.x, size);
      required = Arrays.copyOf(c.required, size);
      present = Arrays.copyOf(c.present, size);
      added = Arrays.copyOf(c.added, size);
      blackbox = Arrays.copyOf(c.blackbox, size);
      serverAdded = Arrays.copyOf(c.serverAdded, size);
      this.size = size;
      this.serverAddedAny = serverAddedAny;
    }

    static Columns of(NoiseSchedule s) {
      long rows = s.rowCount();
      long stride = Math.max(1, (rows + MAX_POINTS - 1) / MAX_POINTS);
      Columns c = new Columns((int) Math.min(rows, MAX_POINTS + 1L));
      int n = 0;
      long i = 0;
      boolean serverAddedAny = false;
      for (ScheduleRow r : s) {
        i++;
        if (r.hasServer() && r.serverAdded() > 0) {
          serverAddedAny = true;
        }
        if ((i - 1) % stride != 0 && i != rows) {
          continue;
        }
        c.x[n] = r.step();
        c.required[n] = r.required();
        c.present[n] = r.present();
        c.added[n] = r.added();
        c.blackbox[n] = r.blackbox();
        c.serverAdded[n] = r.hasServer() ? r.serverAdded() : 0;
        n++;
      }
      return new Columns(c, n, serverAddedAny);
    }

    boolean anyPositive() {
      for (int i = 0; i < size; i++) {
        if (required[i] > 0 || added[i] > 0) {
          return true;
        }
      }
      return false;
    }
  }
}
