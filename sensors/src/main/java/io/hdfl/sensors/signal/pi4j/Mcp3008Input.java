package io.hdfl.sensors.signal.pi4j;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What an MCP3008 converts (Microchip DS21295, table 5-2): one of its eight inputs against AGND
 * (single-ended, SGL/DIFF = 1) or one of the eight pseudo-differential pairings of neighbouring
 * inputs (SGL/DIFF = 0). The three select bits D2..D0 are the channel number for single-ended inputs
 * and the pair number for pairs (odd numbers swap IN+ and IN−). A pseudo-differential result is
 * unsigned: an IN+ below IN− reads 0.
 */
public enum Mcp3008Input {
  CH0(true, 0, "CH0"),
  CH1(true, 1, "CH1"),
  CH2(true, 2, "CH2"),
  CH3(true, 3, "CH3"),
  CH4(true, 4, "CH4"),
  CH5(true, 5, "CH5"),
  CH6(true, 6, "CH6"),
  CH7(true, 7, "CH7"),
  /** IN+ = CH0, IN− = CH1. */
  CH0_CH1(false, 0, "CH0-CH1"),
  /** IN+ = CH1, IN− = CH0. */
  CH1_CH0(false, 1, "CH1-CH0"),
  CH2_CH3(false, 2, "CH2-CH3"),
  CH3_CH2(false, 3, "CH3-CH2"),
  CH4_CH5(false, 4, "CH4-CH5"),
  CH5_CH4(false, 5, "CH5-CH4"),
  CH6_CH7(false, 6, "CH6-CH7"),
  CH7_CH6(false, 7, "CH7-CH6");

  private final boolean singleEnded;
  private final int select;
  private final String label;

  Mcp3008Input(boolean singleEnded, int select, String label) {
    this.singleEnded = singleEnded;
    this.select = select;
    this.label = label;
  }

  /** Whether the input is measured against AGND (SGL/DIFF = 1). */
  public boolean singleEnded() {
    return singleEnded;
  }

  /** The D2..D0 select bits. */
  public int selectBits() {
    return select;
  }

  /**
   * {@code CH0} … {@code CH7} or a pair {@code CH0-CH1}, {@code CH1-CH0}, … {@code CH7-CH6} (case and
   * spaces ignored; {@code _} may replace {@code -}).
   *
   * @throws IllegalArgumentException listing the inputs
   */
  public static Mcp3008Input parse(String text) {
    String t = text.strip().toUpperCase(Locale.ROOT).replace(" ", "").replace('_', '-');
    for (Mcp3008Input i : values()) {
      if (i.label.equals(t)) {
        return i;
      }
    }
    throw new IllegalArgumentException("MCP3008 input must be one of "
        + Arrays.stream(values()).map(Mcp3008Input::toString).collect(Collectors.joining(", ")) + ", got '"
        + text.strip() + "'" + (t.matches("CH[0-7]-CH[0-7]")
            ? " (pairs are neighbours only: CH0/CH1, CH2/CH3, CH4/CH5, CH6/CH7)" : ""));
  }

  @Override
  public String toString() {
    return label;
  }
}
