package io.hdfl.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart rendered headless to PNG, in the house style (white background, legend below, sans
 * fonts). On a log axis non-positive points are left out.
 */
public final class LinePlot {
  static {
    // Rendering needs no display; must be set before AWT initialises.
    System.setProperty("java.awt.headless", "true");
  }

  /** A palette for series. */
  public static final Color BLUE = new Color(0x1f77b4);
  public static final Color RED = new Color(0xd62728);
  public static final Color GREY = new Color(0x7f7f7f);
  public static final Color GREEN = new Color(0x2ca02c);
  public static final Color ORANGE = new Color(0xff7f0e);

  private final XYChart chart;
  private final boolean log;

  private LinePlot(XYChart chart, boolean log) {
    this.chart = chart;
    this.log = log;
  }

  /** A new plot; {@code logY} makes the y axis logarithmic. */
  public static LinePlot of(String title, String xTitle, String yTitle, boolean logY, int width, int height) {
    if (width < 200 || height < 150 || width > 10_000 || height > 10_000) {
      throw new IllegalArgumentException("plot size must be within 200x150 .. 10000x10000, got " + width + "x" + height);
    }
    XYChart chart = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    XYStyler st = chart.getStyler();
    st.setYAxisLogarithmic(logY);
    st.setLegendPosition(Styler.LegendPosition.OutsideS);
    st.setLegendLayout(Styler.LegendLayout.Horizontal);
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setPlotGridLinesColor(new Color(0xdddddd));
    st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    st.setXAxisDecimalPattern("#,##0");
    if (logY) {
      // a formatting function would switch XChart to linear tick placement; a pattern keeps the decades
      st.setYAxisDecimalPattern("#,##0.###");
    }
    return new LinePlot(chart, logY);
  }

  /** Fixes the y range (linear axes). */
  public LinePlot yRange(double min, double max) {
    chart.getStyler().setYAxisMin(min);
    chart.getStyler().setYAxisMax(max);
    return this;
  }

  /** Sets the y tick label pattern (java.text.DecimalFormat). */
  public LinePlot yPattern(String pattern) {
    chart.getStyler().setYAxisDecimalPattern(pattern);
    return this;
  }

  /** Adds a line; nothing is drawn for a series without a drawable point. */
  public LinePlot line(String name, double[] x, double[] y, Color color, boolean markers, boolean dashed) {
    double[] xs = new double[x.length];
    double[] ys = new double[x.length];
    int n = 0;
    for (int i = 0; i < x.length; i++) {
      if (Double.isFinite(y[i]) && (!log || y[i] > 0)) {
        xs[n] = x[i];
        ys[n] = y[i];
        n++;
      }
    }
    if (n == 0) {
      return this;
    }
    XYSeries series = chart.addSeries(name, Arrays.copyOf(xs, n), Arrays.copyOf(ys, n));
    series.setLineColor(color);
    series.setMarkerColor(color);
    series.setMarker(markers ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
    series.setLineStyle(dashed
        ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {7f, 4f}, 0f)
        : new BasicStroke(2f));
    return this;
  }

  /** The PNG bytes. */
  public byte[] png() throws IOException {
    try {
      return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    } catch (Error | NullPointerException e) {
      if (fontFailure(e)) {
        throw new IOException("cannot draw the plot: Java2D found no usable fonts (" + e
            + "); install fontconfig and a font, e.g. fonts-dejavu-core", e);
      }
      throw e;
    }
  }

  /**
   * Whether {@code e} is how a JDK without fontconfig, freetype or any font fails on the first text
   * it draws (an NPE or Error from the font code, or an UnsatisfiedLinkError from libfontmanager).
   */
  public static boolean fontFailure(Throwable e) {
    if (e instanceof UnsatisfiedLinkError || String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("font")) {
      return true;
    }
    for (StackTraceElement f : e.getStackTrace()) {
      if (f.getClassName().startsWith("sun.font.") || f.getClassName().startsWith("sun.awt.FontConfiguration")) {
        return true;
      }
    }
    return false;
  }
}
